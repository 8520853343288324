import { safeEqual } from '../../crypto/tokens';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { logWarn } from '../../log/logger';
import { realmDb, type DomainContext } from '../../realm/context';
import { safeContinuation } from '../../web/continuation';
import { finishUpstreamLogin, startUpstreamLogin, UpstreamOidcError, type PendingUpstreamLogin } from '../external-identity/oidc/upstream-oidc';
import { oidcCallbackUrl } from '../login-providers/provider-dto';
import { activeProvider, type ProviderRow } from '../login-providers/repo';
import { issueSecret, redeemToken } from '../one-time-secrets/one-time-secrets';
import { isSameSession, signedInPerson, type LinkIntent } from './link-intent';
import { signInWithUpstream, type ExternalSignInResult } from './link-or-create';
import { holdPendingLink } from './pending-link';
import { oidcConfigOf } from './upstream-config';
import { identityFromOidcClaims } from './upstream-claims';

// Sign-in with an upstream OpenID provider (spec 4.5 "OIDC flow"): authorization code with PKCE,
// state and nonce; openid-client validates the ID token. The login in flight is a one-time secret
// whose token is the `state` (10 minutes, used once), and the browser that started it carries the
// same value in a cookie, so an answer can only finish in the browser that asked (no login CSRF).
// The record also holds the intent (link-intent.ts): without one it is a sign-in, which never links
// to the person whose cookie comes along; a link must finish in the session that asked for it, and
// then waits for that person's confirmation (pending-link.ts).

type InFlight = PendingUpstreamLogin & { providerId: string; returnUrl?: string; link?: LinkIntent };

export async function startOidcSignIn(
  ctx: DomainContext,
  providerId: string,
  returnUrl: string | undefined,
  link?: LinkIntent,
): Promise<{ location: string; state: string }> {
  const db = await realmDb(ctx.realm);
  const provider = await activeProvider(db, providerId, 'Oidc');
  if (!provider) throw new AppError('LoginProvider.NotFound');
  const { authorizationUrl, pending } = await upstream(provider, () =>
    oidcConfigOf(db, provider).then((cfg) => startUpstreamLogin(cfg, oidcCallbackUrl(ctx.realm))),
  );
  const data: InFlight = { ...pending, providerId, returnUrl: safeContinuation(returnUrl), ...(link ? { link } : {}) };
  await issueSecret(db, { purpose: 'external-login', knownToken: pending.state, data });
  return { location: authorizationUrl, state: pending.state };
}

export type OidcFinish = { result: ExternalSignInResult; returnUrl?: string };

export async function finishOidcSignIn(ctx: DomainContext, callbackUrl: URL, browserState: string | undefined): Promise<OidcFinish> {
  const db = await realmDb(ctx.realm);
  const state = callbackUrl.searchParams.get('state') ?? '';
  if (!browserState || !safeEqual(state, browserState)) throw await failed(ctx, 'the answer does not belong to a sign-in this browser started');
  const redeemed = await redeemToken(db, 'external-login', state);
  if (!redeemed.ok) throw await failed(ctx, `the sign-in in flight is ${redeemed.reason}`);
  const flight = redeemed.record.data as InFlight;
  if (flight.link && !isSameSession(ctx, flight.link)) throw await failed(ctx, 'the link was asked for in another session');
  const provider = await activeProvider(db, flight.providerId, 'Oidc');
  if (!provider) throw new AppError('LoginProvider.NotFound');
  const cfg = await oidcConfigOf(db, provider);
  const answer = await upstream(provider, () => finishUpstreamLogin(cfg, oidcCallbackUrl(ctx.realm), callbackUrl, flight), ctx);
  const identity = identityFromOidcClaims(answer.issuer, answer.subject, answer.claims);
  if (flight.link) return { result: await holdPendingLink(ctx, provider, identity, flight.link) };
  const result = await signInWithUpstream(ctx, provider, identity, answer.idToken, { signedInAs: signedInPerson(ctx) });
  return { result, returnUrl: flight.returnUrl };
}

/**
 * Runs a call to the upstream: an answer it refuses is ExternalLogin.Failed (in the security log);
 * an upstream that cannot be reached is ExternalLogin.Unavailable, with a log line for operators.
 */
async function upstream<T>(provider: ProviderRow, call: () => Promise<T>, ctx?: DomainContext): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (!(e instanceof UpstreamOidcError)) throw e;
    if (e.unreachable) {
      logWarn('upstream OIDC provider unreachable', { loginProviderId: provider.id, reason: e.message });
      throw new AppError('ExternalLogin.Unavailable', { detail: `${provider.name} cannot be reached right now.` });
    }
    if (ctx) await failedEvent(ctx, provider, e.message);
    throw new AppError('ExternalLogin.Failed', { detail: `${provider.name} did not confirm the sign-in: ${e.message}.` });
  }
}

/** A callback that belongs to no sign-in in flight: in the security log, then refused. */
async function failed(ctx: DomainContext, reason: string): Promise<AppError> {
  await failedEvent(ctx, undefined, reason);
  return new AppError('ExternalLogin.Failed', { detail: `The sign-in could not be finished: ${reason}. Start again.` });
}

async function failedEvent(ctx: DomainContext, provider: ProviderRow | undefined, reason: string): Promise<void> {
  await publish(
    eventFrom(ctx, 'auth.external-login-refused', undefined, {
      success: false,
      reason: `upstream-failed: ${reason.slice(0, 300)}`,
      loginProviderId: provider?.id ?? '',
      provider: provider?.name ?? 'OIDC',
    }),
  );
}
