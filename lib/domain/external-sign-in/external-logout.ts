import { publicOrigin } from '../../config/env';
import { logWarn } from '../../log/logger';
import { realmDb, type DomainContext } from '../../realm/context';
import { logout } from '../auth/logout';
import { upstreamLogoutUrl } from '../external-identity/oidc/upstream-oidc';
import { activeProvider } from '../login-providers/repo';
import { upstreamOfSession } from '../sessions/upstream-session';
import { oidcConfigOf } from './upstream-config';

// Signing out of the upstream too (spec 4.1 logout `EndIdpSession`, 4.5 external-logout): the
// browser session ends here, and when it came through a live OIDC provider that offers RP-initiated
// logout, the answer is that provider's end-session URL with the ID token it issued as the hint and
// our /logged-out page to come back to. SAML (no Single Logout, spec 4.5) and everything else end
// locally only: undefined.
export async function endUpstreamSession(ctx: DomainContext, providerId?: string): Promise<string | undefined> {
  if (ctx.actor.kind !== 'user' || !ctx.actor.sessionId) return undefined;
  const db = await realmDb(ctx.realm);
  const upstream = await upstreamOfSession(db, ctx.actor.sessionId);
  await logout(ctx);
  if (!upstream?.idToken || (providerId && upstream.loginProviderId !== providerId)) return undefined;
  const provider = await activeProvider(db, upstream.loginProviderId, 'Oidc');
  if (!provider) return undefined;
  try {
    return await upstreamLogoutUrl(await oidcConfigOf(db, provider), upstream.idToken, `${publicOrigin(ctx.realm.primaryDomain)}/logged-out`);
  } catch (e) {
    // The upstream cannot be reached: the local sign-out stands, the person lands on /logged-out.
    logWarn('upstream logout unavailable', { loginProviderId: provider.id, reason: e instanceof Error ? e.message : String(e) });
    return undefined;
  }
}
