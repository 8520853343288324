import { parseStringList } from '../../db/json-list';
import { AppError } from '../../errors/app-error';
import { parseSettings } from '../apps/catalog-json';
import { BUILT_IN_IDS } from '../built-in-ids';
import { realmSettings } from '../realm-settings/realm-settings';
import { realmDb, type DomainContext } from '../../realm/context';

// Native cookieless grants (spec 4.4): off unless the realm (or the client's App, whose Settings
// may override `NativeGrants`) turns them on, and only for clients registered for the grant type.
export const NATIVE_GRANT_TYPES = { otp: 'urn:gatehouse:otp', magic: 'urn:gatehouse:magic', passkey: 'urn:gatehouse:passkey' } as const;
export type NativeGrantType = (typeof NATIVE_GRANT_TYPES)[keyof typeof NATIVE_GRANT_TYPES];

export type NativeClient = { clientId: string; appId: string };

function appOverride(settingsJson: string | null | undefined): boolean | undefined {
  const section = parseSettings(settingsJson)?.NativeGrants as { Enabled?: unknown } | null | undefined;
  return typeof section?.Enabled === 'boolean' ? section.Enabled : undefined;
}

/** Whether native grants are on for an App (its override, else the realm's setting). */
export async function nativeGrantsEnabled(ctx: DomainContext, appId: string): Promise<boolean> {
  const db = await realmDb(ctx.realm);
  const app = await db.app.findUnique({ where: { id: appId }, select: { settings: true } });
  return appOverride(app?.settings) ?? (await realmSettings(ctx.realm)).NativeGrants.Enabled;
}

/**
 * The client a native call names, when it may use `grantType` here; otherwise 404 (the surface is
 * hidden while the feature is off) or 400 for a client that is unknown or not registered for it.
 */
export async function requireNativeClient(ctx: DomainContext, clientId: string, grantType: NativeGrantType): Promise<NativeClient> {
  const db = await realmDb(ctx.realm);
  const client = await db.oAuthClient.findUnique({ where: { clientId }, select: { clientId: true, appId: true, isActive: true, grantTypes: true } });
  const appId = client?.appId ?? BUILT_IN_IDS.mainApp;
  if (!(await nativeGrantsEnabled(ctx, appId))) throw new AppError('NativeGrants.Disabled');
  if (!client || !client.isActive || !parseStringList(client.grantTypes).includes(grantType)) {
    throw new AppError('Validation.Failed', { errors: { ClientId: [`Unknown client, or not registered for ${grantType}.`] } });
  }
  return { clientId: client.clientId, appId };
}
