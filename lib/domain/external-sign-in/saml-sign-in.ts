import { publicOrigin } from '../../config/env';
import { randomToken, safeEqual } from '../../crypto/tokens';
import type { RealmDb } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { logWarn } from '../../log/logger';
import { realmDb, type DomainContext } from '../../realm/context';
import { safeContinuation } from '../../web/continuation';
import { resolveIdp, type SamlIdp } from '../external-identity/saml/idp-settings';
import { samlLoginRedirectUrl } from '../external-identity/saml/login-redirect';
import { REJECTION, SamlRejectedError } from '../external-identity/saml/rejected';
import type { RequestIdStore } from '../external-identity/saml/request-id-store';
import { spUrlsFor, type SpUrls } from '../external-identity/saml/sp-config';
import { generateSpKeyPair, type SpKeyPair } from '../external-identity/saml/sp-key-pair';
import { spMetadataXml } from '../external-identity/saml/sp-metadata';
import { ANSWERED_REQUEST, validateSamlPost, type AcsPostBody } from '../external-identity/saml/validate-post';
import { readProviderSecret, storeGeneratedSecret } from '../login-providers/provider-secret';
import type { ProviderRow } from '../login-providers/repo';
import { readProviderRows } from '../login-providers/repo';
import { issueSecret, redeemToken } from '../one-time-secrets/one-time-secrets';
import { limitRate, refundRate } from '../realm-settings/rate-limit';
import { signedInPerson, type LinkIntent } from './link-intent';
import { signInWithUpstream, type ExternalSignInResult } from './link-or-create';
import { holdPendingLink } from './pending-link';
import { identityFromSamlAssertion } from './upstream-claims';

// SAML 2.0 sign-in, this realm as the service provider (spec 4.5 "SAML flow"; CONTRACT.md): SP
// metadata, a signed AuthnRequest by HTTP-Redirect, and the ACS that accepts a signed response only
// as the answer to a request this realm sent, once. The request ids live in the realm's database
// (one-time secrets), so any instance may receive the answer and another realm's are unknown here.
// The SP key pair is made on first use and kept sealed as the provider's secret.

async function samlProvider(db: RealmDb, slug: string): Promise<ProviderRow> {
  const [provider] = await readProviderRows(db, { slug, flavor: 'Saml', isActive: true });
  if (!provider?.config.Saml) throw new AppError('Request.NotFound');
  return provider;
}

function spUrls(ctx: DomainContext, provider: ProviderRow): SpUrls {
  return spUrlsFor(publicOrigin(ctx.realm.primaryDomain), provider.slug!);
}

async function spKeys(db: RealmDb, provider: ProviderRow, urls: SpUrls): Promise<SpKeyPair> {
  const stored = await readProviderSecret(db, provider.id);
  if (stored) return JSON.parse(stored) as SpKeyPair;
  await storeGeneratedSecret(db, provider.id, JSON.stringify(await generateSpKeyPair(urls.entityId)));
  return JSON.parse((await readProviderSecret(db, provider.id))!) as SpKeyPair;
}

function idpOf(provider: ProviderRow): SamlIdp {
  try {
    return resolveIdp(provider.config.Saml!);
  } catch (e) {
    logWarn('SAML provider misconfigured', { loginProviderId: provider.id, reason: e instanceof Error ? e.message : String(e) });
    throw new AppError('ExternalLogin.Unavailable', { detail: `${provider.name} is not fully configured.` });
  }
}

/**
 * What the login step records with the request id, read back at the ACS. `link`: the person and
 * session that asked to link from the account page (link-intent.ts); the IdP's cross-site post
 * carries no cookie of ours, so only this record says a link was asked for, and the session is
 * checked again at the confirmation (pending-link.ts).
 */
type SentRequest = { returnUrl?: string; link?: LinkIntent; browser?: string };

/**
 * A RequestIdStore over the realm's one-time secrets, scoped to one provider. `taken` receives what
 * was recorded with the request the answer names.
 */
function requestStore(db: RealmDb, providerId: string, sent?: SentRequest): RequestIdStore & { taken?: SentRequest } {
  const key = (id: string) => `${providerId}:${id}`;
  const store: RequestIdStore & { taken?: SentRequest } = {
    async remember(id, expiresAt) {
      const ttlMinutes = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 60_000));
      await issueSecret(db, { purpose: 'saml-request', knownToken: key(id), data: id.startsWith(ANSWERED_REQUEST) ? {} : (sent ?? {}), ttlMinutes });
    },
    async takeOnce(id) {
      const r = await redeemToken(db, 'saml-request', key(id));
      if (r.ok && !id.startsWith(ANSWERED_REQUEST)) store.taken = (r.record.data ?? {}) satisfies SentRequest;
      return r.ok;
    },
  };
  return store;
}

export async function samlSpMetadata(ctx: DomainContext, slug: string): Promise<string> {
  const db = await realmDb(ctx.realm);
  const provider = await samlProvider(db, slug);
  const urls = spUrls(ctx, provider);
  return spMetadataXml(urls, await spKeys(db, provider, urls));
}

/**
 * GET /saml/{slug}/login (a sign-in) or a link started from the account page (`link`): the IdP's
 * SSO URL with a signed AuthnRequest, and the value the browser keeps (saml-browser-cookie.ts).
 */
export async function startSamlSignIn(
  ctx: DomainContext,
  slug: string,
  returnUrl: string | undefined,
  link?: LinkIntent,
): Promise<{ location: string; browser: string }> {
  const db = await realmDb(ctx.realm);
  const provider = await samlProvider(db, slug);
  const urls = spUrls(ctx, provider);
  const browser = randomToken();
  const store = requestStore(db, provider.id, { returnUrl: safeContinuation(returnUrl), ...(link ? { link } : {}), browser });
  return { location: await samlLoginRedirectUrl(idpOf(provider), urls, await spKeys(db, provider, urls), store), browser };
}

/**
 * POST /saml/{slug}/acs: the signed response, checked, then the person signed in (or the identity
 * linked). `browser.value`: the browser's SAML cookie (undefined where it cannot come back, plain
 * http); `browser.enforced`: it must match what the request recorded (https).
 *
 * A failed post counts against the source address's own small allowance (`saml-acs-failure`,
 * docs/rate-limits.md), taken before anything is read and given back when the sign-in succeeds, so
 * concurrent posts cannot slip past it; spent, the ACS answers 429 at once.
 */
export async function finishSamlSignIn(
  ctx: DomainContext,
  slug: string,
  body: AcsPostBody,
  browser: { value: string | undefined; enforced: boolean },
): Promise<{ result: ExternalSignInResult; returnUrl?: string }> {
  await limitRate(ctx, 'saml-acs-failure', 'source', ctx.ip ?? 'unknown');
  const db = await realmDb(ctx.realm);
  const provider = await samlProvider(db, slug);
  const store = requestStore(db, provider.id);
  let assertion;
  try {
    // On https a post without our cookie cannot be the browser's answer: nothing else is read.
    if (browser.enforced && !browser.value) throw new SamlRejectedError(REJECTION.otherBrowser);
    const sent = () => store.taken ?? {};
    const ownBrowser = () => !browser.enforced || (!!sent().browser && !!browser.value && safeEqual(sent().browser!, browser.value));
    assertion = await validateSamlPost(idpOf(provider), spUrls(ctx, provider), store, body, ownBrowser);
  } catch (e) {
    if (!(e instanceof SamlRejectedError)) throw e;
    if (e.detail) logWarn('SAML response refused', { loginProviderId: provider.id, reason: e.reason, detail: e.detail });
    await publish(
      eventFrom(ctx, 'auth.external-login-refused', undefined, {
        success: false,
        reason: `saml: ${e.reason}`,
        loginProviderId: provider.id,
        provider: provider.name,
      }),
    );
    throw new AppError('ExternalLogin.Failed', {
      detail:
        e.reason === REJECTION.otherBrowser
          ? 'This answer belongs to a sign-in started in another browser. Start again.'
          : `${provider.name}'s answer was refused: ${e.reason}.`,
    });
  }
  const sent = store.taken ?? {};
  const identity = identityFromSamlAssertion(assertion.issuer, assertion.nameId, assertion.attributes);
  // A response that got this far was solicited and valid: it gives back what the failure allowance took.
  if (sent.link) {
    const pending = await holdPendingLink(ctx, provider, identity, sent.link);
    await refundRate(ctx, 'saml-acs-failure', 'source', ctx.ip ?? 'unknown');
    return { result: pending };
  }
  const result = await signInWithUpstream(ctx, provider, identity, undefined, { signedInAs: signedInPerson(ctx) });
  await refundRate(ctx, 'saml-acs-failure', 'source', ctx.ip ?? 'unknown');
  return { result, returnUrl: sent.returnUrl };
}
