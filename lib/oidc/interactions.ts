import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { isMetadataDocumentClientId } from '../domain/client-metadata-documents/client-id';
import { rememberMetadataDocumentClient } from '../domain/client-metadata-documents/remembered-clients';
import { gatehouseScopesIn } from '../domain/oauth-scopes/gatehouse-scopes';
import { AppError } from '../errors/app-error';
import { assertSameOrigin } from '../web/csrf';
import type { RealmRecord } from '../realm/realm-record';
import { sendProblem } from '../runtime/node-problem';
import { acrOf, meetsAcr } from './acr';
import { clientExtra } from './client-metadata';
import { INTERACTION_PREFIX, interactionPath } from './routes';
import { liveBrowserSession } from './session-bridge';

// The sign-in bridge (issue 4.2). The engine sends a browser that needs a person here:
// - login: a live Gatehouse session (fresh enough for prompt=login, max_age or the requested acr)
//   finishes the step at once; otherwise the browser goes to the hosted sign-in with this page as
//   its `?redirect=` continuation, and every local sign-in method comes back here.
// - consent: clients with ConsentType Implicit are granted what they asked for; Explicit ones show
//   the hosted consent page (/consent), whose form posts to `confirm` or `abort` below.

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 303;
  res.setHeader('location', location);
  res.setHeader('cache-control', 'no-store');
  res.end();
}

function signInUrl(details: Details, reauth: boolean): string {
  const q = new URLSearchParams({ redirect: interactionPath(details.uid) });
  if (reauth) q.set('reauth', '1');
  const hint = details.params.login_hint;
  if (typeof hint === 'string' && hint.length <= 256) q.set('login_hint', hint);
  return `/login?${q.toString()}`;
}

function requestedAcr(details: Details): string | undefined {
  const values = typeof details.params.acr_values === 'string' ? details.params.acr_values.split(' ') : [];
  return values.find(Boolean);
}

async function onLogin(realm: RealmRecord, provider: Provider, details: Details, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const session = await liveBrowserSession(realm, req.headers.cookie);
  const reasons = details.prompt.reasons;
  // The engine names `max_age` whenever it has no session of its own; only a Gatehouse session older
  // than max_age needs a fresh sign-in (OIDC Core 3.1.2.1).
  const maxAge = Number(details.params.max_age);
  const tooOld = reasons.includes('max_age') && session !== null && Number.isFinite(maxAge) && Date.now() - session.createdAt.getTime() > maxAge * 1000;
  const freshNeeded = reasons.includes('login_prompt') || tooOld || reasons.some((r) => r.startsWith('essential_acr'));
  // A fresh sign-in is one made after the interaction began (`iat` has one-second resolution).
  const freshEnough = session && (!freshNeeded || session.createdAt.getTime() >= details.iat * 1000);
  const acr = requestedAcr(details);
  if (session && freshEnough) {
    if (acr && !meetsAcr(session.amr, acr) && reasons.some((r) => r.startsWith('essential_acr'))) {
      await provider.interactionFinished(
        req,
        res,
        { error: 'unmet_authentication_requirements', error_description: 'The sign-in did not meet the requested authentication level.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: session.userId, amr: session.amr, acr: acrOf(session.amr), ts: Math.floor(session.createdAt.getTime() / 1000) } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (details.params.prompt === 'none') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'login_required', error_description: 'The person is not signed in.' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  redirect(res, signInUrl(details, Boolean(session)));
}

/** Grants what the interaction is missing: every requested scope, claim and resource scope. */
async function grantMissing(provider: Provider, details: Details): Promise<string> {
  const accountId = details.session?.accountId;
  const clientId = String(details.params.client_id);
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId });
  if (!grant) throw new AppError('Validation.Failed', { detail: 'The sign-in request has expired. Start again from the application.' });
  const d = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (d.missingOIDCScope?.length) grant.addOIDCScope(d.missingOIDCScope.join(' '));
  if (d.missingOIDCClaims?.length) grant.addOIDCClaims(d.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  return grant.save();
}

/** Every scope the interaction asks the person for (OIDC scopes and API scopes alike). */
function missingScopes(details: Details): string[] {
  const d = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  return [...(d.missingOIDCScope ?? []), ...Object.values(d.missingResourceScopes ?? {}).flat()];
}

async function onConsent(realm: RealmRecord, provider: Provider, details: Details, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const client = await provider.Client.find(String(details.params.client_id));
  const consentType = clientExtra(client, 'consent_type');
  // Gatehouse's own scopes let the client act on Gatehouse as the person (issue 8 item 4): the person
  // always approves them on the consent page, whatever the client's consent type.
  const asksForGatehouse = gatehouseScopesIn(missingScopes(details)).length > 0;
  if (consentType === 'Implicit' && !asksForGatehouse) {
    const grantId = await grantMissing(provider, details);
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }
  if (details.params.prompt === 'none') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'consent_required', error_description: 'The person has not approved this application.' },
      { mergeWithLastSubmission: true },
    );
    return;
  }
  // A client described by its own metadata document has no row the consent page could read its name from.
  if (client && isMetadataDocumentClientId(client.clientId)) {
    await rememberMetadataDocumentClient(realm, client.clientId, client.clientName, Math.max(60, details.exp - Math.floor(Date.now() / 1000)));
  }
  redirect(res, `/consent?uid=${encodeURIComponent(details.uid)}`);
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  return new Request('http://interaction.invalid/', { method: req.method, headers });
}

/** Serves `/connect/interaction/{uid}[/confirm|/abort]`. */
export async function handleInteraction(realm: RealmRecord, provider: Provider, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const [uid, action] = pathname.slice(INTERACTION_PREFIX.length).split('/');
  let details: Details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    // No interaction cookie, or it expired: the sign-in must start again from the application.
    return sendProblem(res, new AppError('Auth.InteractionExpired'));
  }
  if (details.uid !== uid) return sendProblem(res, new AppError('Auth.InteractionExpired'));

  if (!action && req.method === 'GET') {
    if (details.prompt.name === 'login') return onLogin(realm, provider, details, req, res);
    if (details.prompt.name === 'consent') return onConsent(realm, provider, details, req, res);
    return sendProblem(res, new AppError('Auth.InteractionExpired'));
  }
  if (req.method !== 'POST' || (action !== 'confirm' && action !== 'abort')) return sendProblem(res, new AppError('Request.NotFound'));
  assertSameOrigin(toRequest(req));
  if (details.prompt.name !== 'consent') return sendProblem(res, new AppError('Auth.InteractionExpired'));
  const session = await liveBrowserSession(realm, req.headers.cookie);
  if (!session || session.userId !== details.session?.accountId) return sendProblem(res, new AppError('Auth.Unauthenticated'));
  if (action === 'abort') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The person declined the request.' },
      { mergeWithLastSubmission: true },
    );
    return;
  }
  const grantId = await grantMissing(provider, details);
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
