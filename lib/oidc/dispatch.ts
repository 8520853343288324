import type { IncomingMessage, ServerResponse } from 'node:http';
import { settings } from '../config/env';
import { readPointNow } from '../db/sqlite-read-cache';
import { turnBarrier } from '../runtime/turn-barrier';
import { CLIENT_IP_HEADER } from '../web/client-ip';
import { engineCsp } from '../web/security-headers';
import type { RealmRecord } from '../realm/realm-record';
import { handleInteraction } from './interactions';
import { handlePasskeyRoute, PASSKEY_PREFIX } from './native-grants/passkey-routes';
import { PAGE_STYLE_HASH } from './pages';
import { withEngineRequest } from './engine-request';
import { engineFor, readyEngine } from './provider-cache';
import { INTERACTION_PREFIX, OIDC_ROUTES } from './routes';
import { alignEngineSession } from './session-bridge';

// The door to the OAuth engine (docs/architecture.md "One process, four doors"): server.ts hands every
// /connect/* and /.well-known/* request of a resolved realm to this function.
const SESSION_PATHS = new Set<string>([OIDC_ROUTES.authorization, OIDC_ROUTES.end_session, OIDC_ROUTES.code_verification]);
// Their sub-paths too: /connect/authorize/{uid} and /connect/device/{uid} are where the engine
// resumes after the sign-in bridge, and /connect/endsession/confirm ends the session. A resume
// that still saw the previous person's engine session would make the engine treat the sign-in as
// an account switch and log that session out first.
const SESSION_PREFIXES = [...SESSION_PATHS].map((p) => `${p}/`);

// The engine's machine-to-machine endpoints answer JSON (or JWT), never a page: they need no page
// policy (any HTML still gets server.ts's fallback one, lib/runtime/html-guard.ts).
const BACK_CHANNEL_PATHS = new Set<string>([
  OIDC_ROUTES.token,
  OIDC_ROUTES.userinfo,
  OIDC_ROUTES.introspection,
  OIDC_ROUTES.revocation,
  OIDC_ROUTES.device_authorization,
  OIDC_ROUTES.pushed_authorization_request,
  OIDC_ROUTES.registration,
  OIDC_ROUTES.jwks,
  OIDC_ROUTES.backchannel_authentication,
  OIDC_ROUTES.challenge,
  OIDC_ROUTES.credential,
]);

const pagePolicies = new Map<string, string>();
function enginePagePolicy(publicScheme: 'http' | 'https'): string {
  let policy = pagePolicies.get(publicScheme);
  if (policy === undefined) pagePolicies.set(publicScheme, (policy = engineCsp({ styleHashes: [PAGE_STYLE_HASH], publicScheme })));
  return policy;
}

function usesEngineSession(pathname: string): boolean {
  return SESSION_PATHS.has(pathname) || SESSION_PREFIXES.some((p) => pathname.startsWith(p));
}

export async function dispatchToEngine(realm: RealmRecord, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The native passkey routes are Gatehouse's own: they need no provider built for them.
  if (pathname === PASSKEY_PREFIX || pathname.startsWith(`${PASSKEY_PREFIX}/`)) return handlePasskeyRoute(realm, pathname, req, res);
  // A built engine without waiting a turn; engineFor builds, rebuilds or waits for one.
  const engine = readyEngine(realm) ?? (await engineFor(realm));
  // Before the engine renders: its form_post page adds its script's hash to this policy.
  if (!BACK_CHANNEL_PATHS.has(pathname)) res.setHeader('content-security-policy', enginePagePolicy(settings().publicScheme));
  // The engine builds its URLs from these: the scheme is a setting, the address is the peer's.
  req.headers['x-forwarded-proto'] = settings().publicScheme;
  req.headers['x-forwarded-for'] = String(req.headers[CLIENT_IP_HEADER] ?? '');
  delete req.headers['x-forwarded-host'];

  // The request arrived before this point. The requests one poll brought in then wait for each
  // other, so that the first to read the realm's database checks it for commits by other processes
  // after all of them had arrived, and that one check serves them all (sqlite-read-cache.ts).
  const reads = readPointNow();
  await turnBarrier();
  // The engine's hooks without a request (client lookup, client metadata validation) read the Host here.
  const ip = req.headers[CLIENT_IP_HEADER];
  return withEngineRequest(
    { realm, host: req.headers.host, reads, ip: typeof ip === 'string' ? ip : undefined, userAgent: req.headers['user-agent'] },
    async () => {
      if (pathname.startsWith(INTERACTION_PREFIX)) return handleInteraction(realm, engine.provider, pathname, req, res);
      if (pathname === '/.well-known/oauth-authorization-server') {
        // RFC 8414 metadata: the same document as OpenID discovery.
        req.url = `/.well-known/openid-configuration${req.url?.slice(pathname.length) ?? ''}`;
      }
      if (usesEngineSession(pathname)) await alignEngineSession(realm, req);
      await engine.callback(req, res);
    },
  );
}
