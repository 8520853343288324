import type { KoaContextWithOIDC } from 'oidc-provider';
import { AppFeatures } from '../domain/apps/app-features';
import { appIdForHost } from '../domain/apps/request-app';
import { assertClientCapacity } from '../domain/entitlements/capacity';
import { flag } from '../domain/flags/registry';
import { isAppError } from '../errors/app-error';
import { PROBLEM_CONTENT_TYPE, problemFromError } from '../errors/problem';
import { BUILT_IN_IDS } from '../domain/built-in-ids';
import { realmDb } from '../realm/context';
import type { RealmRecord } from '../realm/realm-record';
import { OIDC_ROUTES } from './routes';

// The OAuth features an App's Settings switch (spec 4.7 "Applications"; the App's section overrides
// the realm's of the same name). One provider serves every host of a realm, so the engine is built
// with dynamic registration and metadata documents on, and this middleware decides per request:
// - `/connect/register` (RFC 7591): the `Dcr` setting of the App the Host routes to (the built-in
//   App, that is the realm's own setting, on the realm's domains). Off, the route does not exist (404,
//   as the engine answers an unknown route).
// - `/connect/register/{client_id}` (RFC 7592): the `Dcr` setting of the client's App, since its
//   registration_client_uri keeps working from wherever it was registered; an unknown client falls
//   back to the Host's App.
// - discovery: `registration_endpoint` and `client_id_metadata_document_supported` are advertised only
//   where `Dcr` and `Cimd` are on for the Host's App. Metadata documents themselves are gated in cimd.ts.

const DISCOVERY = '/.well-known/openid-configuration';
const REGISTRATION = OIDC_ROUTES.registration;

async function clientAppId(realm: RealmRecord, clientId: string): Promise<string | null | undefined> {
  const db = await realmDb(realm);
  const row = await db.oAuthClient.findUnique({ where: { clientId }, select: { appId: true } });
  return row ? (row.appId ?? BUILT_IN_IDS.mainApp) : undefined;
}

/** The App whose switches decide the request: the client's for RFC 7592 paths, else the Host's. */
async function deciderFor(realm: RealmRecord, ctx: KoaContextWithOIDC): Promise<string> {
  if (ctx.path.startsWith(`${REGISTRATION}/`)) {
    const appId = await clientAppId(realm, decodeURIComponent(ctx.path.slice(REGISTRATION.length + 1)));
    if (appId) return appId;
  }
  return appIdForHost(realm, ctx.get('host'));
}

function isRegistrationPath(path: string): boolean {
  return path === REGISTRATION || (path.startsWith(`${REGISTRATION}/`) && !path.slice(REGISTRATION.length + 1).includes('/'));
}

/** Around the engine (engine-hooks.ts): every other path goes straight to `next`. */
export function appFeatureGates(realm: RealmRecord): (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void> {
  return (ctx, next) => {
    const registration = isRegistrationPath(ctx.path);
    const discovery = ctx.path === DISCOVERY;
    return registration || discovery ? gated(realm, ctx, next, registration, discovery) : next();
  };
}

async function gated(realm: RealmRecord, ctx: KoaContextWithOIDC, next: () => Promise<void>, registration: boolean, discovery: boolean): Promise<void> {
  let appId: string;
  try {
    appId = await deciderFor(realm, ctx);
  } catch {
    // A malformed client id in the path (bad percent-encoding): the engine refuses it on its own.
    appId = appIdForHost(realm, ctx.get('host'));
  }
  // Read through the flag registry (docs/flags.md), as GET/POST /flags/AppFeatures/* answers.
  const dcr = await flag({ realm }, AppFeatures.Dcr, { AppId: appId });
  if (registration && !dcr) {
    ctx.status = 404;
    return;
  }
  // A new registration beyond the realm's MaxOAuthClients: 409 Entitlement.Exceeded, as the admin API
  // answers. A cheap early answer only: the registration checks again in the transaction that
  // inserts the client (lib/domain/oauth-clients/registered-client.ts), against a race.
  if (ctx.path === REGISTRATION && ctx.method === 'POST') {
    try {
      await assertClientCapacity(await realmDb(realm), realm);
    } catch (error) {
      if (!isAppError(error)) throw error;
      const problem = problemFromError(error);
      ctx.status = problem.status;
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = problem.body;
      return;
    }
  }
  await next();
  if (discovery && ctx.body && typeof ctx.body === 'object') {
    const body = ctx.body as Record<string, unknown>;
    if (!dcr) delete body.registration_endpoint;
    if (!(await flag({ realm }, AppFeatures.Cimd, { AppId: appId }))) delete body.client_id_metadata_document_supported;
  }
}
