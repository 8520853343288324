import { cookies, headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { appIdForHost } from '../domain/apps/request-app';
import { currentUser, type CurrentUser } from '../domain/auth/current-user';
import { domainContext, type DomainContext } from '../realm/context';
import { isAppError } from '../errors/app-error';
import { resolveHost } from '../realm/resolve';
import { actorFromCookie } from './authenticate';
import { clientIp } from '../web/client-ip';

// Server components build the same `{ realm, actor }` context as route handlers (docs/architecture.md
// "Layers"), from the request's Host and session cookie, so a page reads through the same domain
// functions the REST API uses. Memoised per request with React's `cache`.

export const pageContext = cache(async (): Promise<DomainContext> => {
  const h = await headers();
  const resolution = await resolveHost(h.get('host'));
  // server.ts answers unknown hosts before Next sees them; this is the belt to those braces.
  if (resolution.kind !== 'realm') notFound();
  const jar = await cookies();
  const cookieHeader = jar.size ? jar.toString() : null;
  const actor = await actorFromCookie(resolution.realm, cookieHeader);
  return domainContext(resolution.realm, actor, {
    ip: clientIp(h),
    userAgent: h.get('user-agent') ?? undefined,
    appId: appIdForHost(resolution.realm, h.get('host')),
  });
});

/** The signed-in user of this request, or null when anonymous (or the session's user is gone). */
export const pageUser = cache(async (): Promise<CurrentUser | null> => {
  const ctx = await pageContext();
  if (ctx.actor.kind !== 'user') return null;
  try {
    return await currentUser(ctx);
  } catch (e) {
    if (isAppError(e) && e.status === 401) return null;
    throw e;
  }
});

/** The CSP nonce proxy.ts generated for this request, if any. */
export async function pageNonce(): Promise<string | undefined> {
  return (await headers()).get('x-gatehouse-nonce') ?? undefined;
}

/** The path and query of this page request, as proxy.ts saw it (for sign-in continuations). */
async function pagePath(): Promise<string> {
  return (await headers()).get('x-gatehouse-path') ?? '/console';
}

/** The signed-in user, or a redirect to sign-in that comes back to this page (stale cookie). */
export async function requirePageUser(): Promise<CurrentUser> {
  const user = await pageUser();
  if (!user) redirect(`/login?redirect=${encodeURIComponent(await pagePath())}`);
  return user;
}
