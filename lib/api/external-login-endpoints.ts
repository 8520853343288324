import { z } from 'zod';
import { clearedExternalLoginCookie, externalLoginCookie, readExternalLoginCookie } from '../auth/external-login-cookie';
import { clearedSessionCookie } from '../auth/session-cookie';
import { endUpstreamSession } from '../domain/external-sign-in/external-logout';
import { negotiate } from '../domain/external-sign-in/kerberos-sign-in';
import { finishOidcSignIn, startOidcSignIn } from '../domain/external-sign-in/oidc-sign-in';
import { defineEndpoint } from '../http/endpoint';
import { externalFailureLanding, externalSignInLanding, redirectTo } from '../http/sign-in-landing';
import { safeContinuation } from '../web/continuation';

// External sign-in by browser navigation (spec 4.5; CONTRACT.md "External identity"): the OIDC
// start and callback, RP-initiated logout at the upstream, and the Kerberos challenge. Each answers
// a redirect; a failure sends the browser back to the sign-in page with a fixed notice (the reason
// is in the security log), never a page of JSON.
const tags = ['External login'];
const returnUrl = z.string().max(2048).optional().catch(undefined);
const idParams = z.object({ id: z.string().min(1).max(64) });

export const externalLoginStartEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/external-login/{id}/start',
  summary: 'Start an OIDC sign-in at the upstream (302); it never links, even signed in (linking: POST /api/account/external-links/start)',
  tags,
  auth: 'optional',
  rateLimit: 'external-login',
  params: idParams,
  query: z.object({ returnUrl }),
  handler: async ({ ctx, params, query, headers }) => {
    try {
      const { location, state } = await startOidcSignIn(ctx, params.id, query.returnUrl);
      headers.append('set-cookie', externalLoginCookie(state));
      const h = new Headers({ location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      return new Response(null, { status: 302, headers: h });
    } catch (e) {
      return externalFailureLanding(e);
    }
  },
});

export const externalLoginFinishEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/external-login/finish',
  summary:
    'The OIDC callback: checks the answer, finds or creates the person, sets the cookie and redirects to returnUrl (a link asked for: to its confirmation)',
  tags,
  auth: 'optional',
  rateLimit: 'external-login',
  query: z.object({ state: z.string().max(512).optional(), code: z.string().max(4096).optional(), error: z.string().max(256).optional() }).loose(),
  handler: async ({ ctx, request, headers }) => {
    headers.append('set-cookie', clearedExternalLoginCookie());
    try {
      const { result, returnUrl: continuation } = await finishOidcSignIn(ctx, new URL(request.url), readExternalLoginCookie(request.headers.get('cookie')));
      return externalSignInLanding(result, continuation, headers);
    } catch (e) {
      return externalFailureLanding(e);
    }
  },
});

export const externalLogoutEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/external-logout/{id}',
  summary: 'Sign out here and at the OIDC upstream (RP-initiated logout with the ID token it issued); else to /logged-out',
  tags,
  auth: 'optional',
  params: idParams,
  handler: async ({ ctx, params, headers }) => {
    const location = await endUpstreamSession(ctx, params.id);
    headers.append('set-cookie', clearedSessionCookie());
    return location ? new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } }) : redirectTo('/logged-out');
  },
});

export const negotiateEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/negotiate/{id}',
  summary: 'Kerberos (SPNEGO): 401 WWW-Authenticate: Negotiate, then, with a valid ticket, the cookie and a 302 to returnUrl',
  tags,
  auth: 'optional',
  rateLimit: 'external-login',
  params: idParams,
  query: z.object({ returnUrl }),
  handler: async ({ ctx, params, query, request, headers }) => {
    try {
      const r = await negotiate(ctx, params.id, request.headers.get('authorization'));
      if (r.kind !== 'done') {
        // The page a browser without a ticket shows: back to the other ways to sign in.
        const body = `<!doctype html><meta charset="utf-8"><title>Kerberos sign-in</title><p>Your browser did not present a Kerberos ticket for this site. <a href="/login">Sign in another way</a>.</p>`;
        return new Response(body, {
          status: 401,
          headers: { 'www-authenticate': 'Negotiate', 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
        });
      }
      if (r.mutualToken) headers.set('www-authenticate', `Negotiate ${r.mutualToken}`);
      return externalSignInLanding(r.result, safeContinuation(query.returnUrl), headers);
    } catch (e) {
      return externalFailureLanding(e);
    }
  },
});
