import { parseStringList } from '../../db/json-list';
import { AppError } from '../../errors/app-error';
import { AppFeatures } from '../apps/app-features';
import { flag } from '../flags/registry';
import { BUILT_IN_IDS } from '../built-in-ids';
import { realmDb, type DomainContext } from '../../realm/context';

// Native cookieless grants (spec 4.4): off unless the effective settings of the deciding App turn
// `NativeGrants` on (the App's Settings override the realm's, spec 4.7), and only for clients
// registered for the grant type.
//
// The deciding App is the client's App (`OAuthClient.appId`); a client without one belongs to no
// App in particular, so the App the request's Host routes to decides (`ctx.appId`, set by the route
// wrapper and the engine door), which is the built-in App on the realm's own domains.
export const NATIVE_GRANT_TYPES = { otp: 'urn:gatehouse:otp', magic: 'urn:gatehouse:magic', passkey: 'urn:gatehouse:passkey' } as const;
export type NativeGrantType = (typeof NATIVE_GRANT_TYPES)[keyof typeof NATIVE_GRANT_TYPES];

export type NativeClient = { clientId: string; appId: string };

/** The App whose settings decide for a client of `clientAppId` called through the request of `ctx`. */
export function decidingApp(ctx: DomainContext, clientAppId: string | null | undefined): string {
  return clientAppId || ctx.appId || BUILT_IN_IDS.mainApp;
}

/** Whether native grants are on for an App: its `NativeGrants` override, else the realm's setting. */
export async function nativeGrantsEnabled(ctx: DomainContext, appId: string): Promise<boolean> {
  return flag(ctx, AppFeatures.NativeGrants, { AppId: appId });
}

/**
 * The client a native call names, when it may use `grantType` here; otherwise 404 (the surface is
 * hidden while the feature is off) or 400 for a client that is unknown or not registered for it.
 */
export async function requireNativeClient(ctx: DomainContext, clientId: string, grantType: NativeGrantType): Promise<NativeClient> {
  const db = await realmDb(ctx.realm);
  const client = await db.oAuthClient.findUnique({ where: { clientId }, select: { clientId: true, appId: true, isActive: true, grantTypes: true } });
  const appId = decidingApp(ctx, client?.appId);
  if (!(await nativeGrantsEnabled(ctx, appId))) throw new AppError('NativeGrants.Disabled');
  if (!client || !client.isActive || !parseStringList(client.grantTypes).includes(grantType)) {
    throw new AppError('Validation.Failed', { errors: { ClientId: [`Unknown client, or not registered for ${grantType}.`] } });
  }
  return { clientId: client.clientId, appId };
}
