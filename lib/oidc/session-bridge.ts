import type { IncomingMessage } from 'node:http';
import { oidcStorageKey } from '../db/oidc-payload-key';
import { parse } from 'cookie';
import { clearedSessionCookie, readSessionCookie } from '../auth/session-cookie';
import { logout } from '../domain/auth/logout';
import { domainContext, realmDb } from '../realm/context';
import { findLiveSession, type LiveSession } from '../domain/sessions/repo';
import type { RealmRecord } from '../realm/realm-record';
import { OIDC_COOKIE_NAMES } from './routes';

// One browser session for the hosted pages and the OAuth engine (issue 4.2). The Gatehouse session
// cookie is the source of truth: the engine's own session counts only while a live Gatehouse session
// of the same person exists. Otherwise its cookie is taken out of the request before the engine
// sees it, so signing out of the hosted pages also signs the browser out of the engine, and someone
// who signs in as another person is not served the previous person's engine session.

export async function liveBrowserSession(realm: RealmRecord, cookieHeader: string | undefined): Promise<LiveSession | null> {
  const token = readSessionCookie(cookieHeader);
  if (!token) return null;
  return findLiveSession(await realmDb(realm), token);
}

const ENGINE_SESSION_COOKIES = new Set([
  OIDC_COOKIE_NAMES.session,
  `${OIDC_COOKIE_NAMES.session}.sig`,
  `${OIDC_COOKIE_NAMES.session}.legacy`,
  `${OIDC_COOKIE_NAMES.session}.legacy.sig`,
]);

function withoutEngineSession(cookieHeader: string): string {
  return cookieHeader
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !ENGINE_SESSION_COOKIES.has(part.slice(0, part.indexOf('=') >>> 0).trim()))
    .join('; ');
}

export async function alignEngineSession(realm: RealmRecord, req: IncomingMessage): Promise<void> {
  const header = req.headers.cookie;
  if (!header) return;
  const engineSessionId = parse(header)[OIDC_COOKIE_NAMES.session];
  if (!engineSessionId) return;
  const [browser, row] = await Promise.all([
    liveBrowserSession(realm, header),
    realmDb(realm).then((db) =>
      db.oidcPayload.findUnique({ where: { model_id: { model: 'Session', id: oidcStorageKey(engineSessionId) } }, select: { accountId: true } }),
    ),
  ]);
  // An engine session nobody signed in to yet (device flow, logout state) carries no account and is
  // kept; one that names a person is kept only while that person's Gatehouse session lives.
  const keep = !row || !row.accountId || row.accountId === browser?.userId;
  if (!keep) req.headers.cookie = withoutEngineSession(header);
}

type KoaLike = {
  oidc?: { route?: string; params?: Record<string, unknown> };
  status: number;
  get(name: string): string;
  append(name: string, value: string): void;
  ip: string;
};

/**
 * After the engine answered (engine-hooks.ts): an RP-initiated logout the person confirmed also ends the Gatehouse browser
 * session, so signing out through the engine signs out of the hosted pages too.
 */
export function endBrowserSessionOnLogout(realm: RealmRecord): (ctx: KoaLike) => Promise<void> | undefined {
  return (ctx) => (ctx.oidc?.route === 'end_session_confirm' && ctx.oidc.params?.logout && ctx.status === 303 ? endBrowserSession(realm, ctx) : undefined);
}

async function endBrowserSession(realm: RealmRecord, ctx: KoaLike): Promise<void> {
  const session = await liveBrowserSession(realm, ctx.get('cookie'));
  if (session) {
    const actor = { kind: 'user', userId: session.userId, userName: session.userName, sessionId: session.id } as const;
    await logout(domainContext(realm, actor, { ip: ctx.ip, userAgent: ctx.get('user-agent') || undefined }));
  }
  ctx.append('set-cookie', clearedSessionCookie());
}
