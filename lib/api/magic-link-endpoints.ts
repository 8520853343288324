import { z } from 'zod';
import { magicLinkLogin } from '../domain/magic-link/magic-link-login';
import { requestMagicLink } from '../domain/magic-link/request-magic-link';
import { sendMagicLinkToUser } from '../domain/magic-link/send-magic-link';
import { isAppError } from '../errors/app-error';
import { defineEndpoint } from '../http/endpoint';
import { applySignInOutcome } from '../http/sign-in-response';
import { redirectTo, signInLanding } from '../http/sign-in-landing';
import { loginOutcomeSchema } from './account-endpoints';

// Magic links (spec 4.3, 4.7, 5.6; CONTRACT.md "Account bodies"). The mailed link is
// GET /api/account/magic-link/login?token=…&user=<user Id>. A browser following it is redirected
// (302) to where it continues — the validated `redirect` carried with the link, the second step,
// or `/login?error=link-invalid`; an API client sending `Accept: application/json` gets the login
// outcome (or the problem) as JSON instead.
const tags = ['Magic link'];
const redirect = z.string().max(2048);

export const magicLinkRequestEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/magic-link/request',
  summary: 'Mail a magic sign-in link (only when the realm enables it; same answer whether or not the address has an account)',
  tags,
  auth: 'anonymous',
  rateLimit: 'magic-link-request',
  body: z.object({ Email: z.email().max(254), Redirect: redirect.optional() }),
  query: z.object({ redirect: redirect.optional() }),
  response: z.object({}),
  handler: async ({ ctx, body, query }) => {
    await requestMagicLink(ctx, body.Email, body.Redirect ?? query.redirect);
    return {};
  },
});

// Errors a browser following a link is sent back to the sign-in page for.
const LINK_ERRORS: ReadonlySet<string> = new Set(['Token.Invalid', 'Token.Expired', 'Token.Used', 'SignIn.MethodDisabled']);

const loose = z.string().max(256).optional().catch(undefined);

export const magicLinkLoginEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/magic-link/login',
  summary: 'Sign in with a mailed link: 302 for browsers; the login outcome as JSON with Accept: application/json',
  tags,
  auth: 'anonymous',
  rateLimit: 'magic-link-login',
  query: z.object({ token: loose, user: loose }),
  response: loginOutcomeSchema,
  handler: async ({ ctx, query, request, headers }) => {
    const wantsJson = /application\/json/i.test(request.headers.get('accept') ?? '');
    try {
      const { outcome, continuation } = await magicLinkLogin(ctx, query.token, query.user);
      const body = applySignInOutcome(outcome, headers);
      return wantsJson ? body : redirectTo(signInLanding(outcome, continuation));
    } catch (e) {
      if (wantsJson || !isAppError(e) || !LINK_ERRORS.has(e.code)) throw e;
      return redirectTo('/login?error=link-invalid');
    }
  },
});

export const adminMagicLinkEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/admin/users/{id}/magic-link',
  summary: 'Mail the user a magic sign-in link (also when self-service links are off); answers when it expires, never the token',
  tags: ['User administration'],
  auth: 'user',
  permission: 'user:write',
  params: z.object({ id: z.string().min(1).max(64) }),
  body: z.object({ Redirect: redirect.optional() }),
  response: z.object({ ExpiresAt: z.date() }),
  handler: async ({ ctx, params, body }) => sendMagicLinkToUser(ctx, params.id, body.Redirect),
});
