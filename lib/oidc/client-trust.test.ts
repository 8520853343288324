import type { KoaContextWithOIDC } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_IDS } from '../domain/built-in-ids';
import type { RealmRecord } from '../realm/realm-record';
import { clientMetadataValidator } from './client-trust';
import { NO_SCOPE } from './client-metadata';
import { readPointNow } from '../db/sqlite-read-cache';
import { withEngineRequest } from './engine-request';

const SHOP = 'shop-app-id';
const realm: RealmRecord = {
  id: 'r1',
  slug: 'acme',
  displayName: 'Acme',
  description: null,
  domains: ['acme.test', 'shop.acme.test'],
  applicationDomains: { 'shop.acme.test': SHOP },
  primaryDomain: 'acme.test',
  isControlPlane: false,
  isActive: true,
  databaseName: 'acme',
  revision: 1,
  entitlements: { MaxUsers: null, MaxOAuthClients: null },
  createdAt: new Date(),
  updatedAt: null,
};
const validate = clientMetadataValidator(realm, ['openid', 'profile', 'gatehouse.management', 'invite:write']);
const ctxOn = (route: string) => ({ oidc: { route } }) as unknown as KoaContextWithOIDC;

/** Runs the validator as the engine does (every extra property in turn) for a request to `host`. */
async function run(metadata: Record<string, unknown>, host: string, route = 'authorization'): Promise<Record<string, unknown>> {
  await withEngineRequest({ realm, host, reads: readPointNow() }, async () => {
    for (const key of ['consent_type', 'access_token_type', 'app_id', 'capabilities', 'service_account_id'])
      validate(ctxOn(route), key, metadata[key], metadata);
  });
  return metadata;
}

const trusted = { consent_type: 'Implicit', access_token_type: 'Reference', capabilities: ['cap:introspect-any'], service_account_id: 'sa1', app_id: 'other' };
const cimd = 'https://app.example.com/oauth/client.json';

describe('client metadata nobody vetted', () => {
  it('a registration cannot claim trusted properties; it belongs to the App of the Host', async () => {
    const m = await run({ client_id: 'c1', redirect_uris: ['https://app.example.com/cb'], ...trusted }, 'shop.acme.test:3000', 'registration');
    expect(m).toMatchObject({ consent_type: 'Explicit', access_token_type: 'Jwt', capabilities: [], app_id: SHOP });
    expect(m.service_account_id).toBeUndefined();
    const realmHost = await run({ client_id: 'c2', ...trusted }, 'acme.test', 'registration');
    expect(realmHost.app_id).toBeUndefined();
  });

  it('a stored client read on any other route keeps what the admin API set', async () => {
    const m = await run({ client_id: 'admin-made', ...trusted }, 'shop.acme.test');
    expect(m).toMatchObject(trusted);
  });

  it('a metadata document client never keeps trusted properties, whatever the route', async () => {
    const m = await run({ client_id: cimd, redirect_uris: ['https://app.example.com/cb'], grant_types: ['authorization_code'], ...trusted }, 'shop.acme.test');
    expect(m).toMatchObject({ consent_type: 'Explicit', capabilities: [], app_id: SHOP });
    expect(m.service_account_id).toBeUndefined();
  });

  it('a metadata document client gets the browser grants only, `none` when it names no method, and the realm’s non-Gatehouse scopes by default', async () => {
    const m = await run(
      {
        client_id: cimd,
        redirect_uris: ['https://app.example.com/cb'],
        grant_types: ['authorization_code', 'client_credentials', 'urn:gatehouse:magic', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      'acme.test',
    );
    expect(m.grant_types).toEqual(['authorization_code', 'refresh_token']);
    expect(m.token_endpoint_auth_method).toBe('none');
    expect(m.scope).toBe('openid profile');
    const keyed = await run(
      { client_id: cimd, redirect_uris: ['https://app.example.com/cb'], grant_types: ['authorization_code'], token_endpoint_auth_method: 'private_key_jwt' },
      'acme.test',
    );
    expect(keyed.token_endpoint_auth_method).toBe('private_key_jwt');
    const none = clientMetadataValidator(realm, ['gatehouse.management']);
    const m2 = { client_id: cimd, redirect_uris: ['https://app.example.com/cb'], grant_types: ['authorization_code'] } as Record<string, unknown>;
    await withEngineRequest({ realm, host: 'acme.test', reads: readPointNow() }, async () => none(ctxOn('authorization'), 'consent_type', undefined, m2));
    expect(m2.scope).toBe(NO_SCOPE);
  });

  it('refuses a metadata document asking for only other grants, Gatehouse scopes, or redirect URIs the admin API refuses', async () => {
    const base = { client_id: cimd, redirect_uris: ['https://app.example.com/cb'], grant_types: ['authorization_code'] };
    await expect(run({ ...base, grant_types: ['client_credentials'] }, 'acme.test')).rejects.toMatchObject({ error: 'invalid_client_metadata' });
    await expect(run({ ...base, scope: 'openid gatehouse.management' }, 'acme.test')).rejects.toMatchObject({ error: 'invalid_client_metadata' });
    await expect(run({ ...base, redirect_uris: ['http://attacker.example/cb'] }, 'acme.test')).rejects.toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('outside a dispatched request a new client belongs to no App', async () => {
    const m: Record<string, unknown> = { client_id: 'c3', app_id: BUILT_IN_IDS.controlPlaneApp };
    validate(ctxOn('registration'), 'consent_type', undefined, m);
    expect(m.app_id).toBeUndefined();
  });
});
