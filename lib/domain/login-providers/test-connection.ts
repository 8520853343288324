import { requirePermission } from '../../authz/require-permission';
import { validationError } from '../../errors/app-error';
import { realmDb, type DomainContext } from '../../realm/context';
import { testLdapConnection } from '../external-identity/ldap/ldap-directory';
import { upstreamClient } from '../external-identity/oidc/upstream-oidc';
import { readProviderSecret } from './provider-secret';
import { requireProviderRow } from './repo';

// POST /api/admin/login-providers/{id}/test: the console's "test connection". LDAP connects, starts
// TLS, binds as the service account and searches the base; OIDC reads the discovery document. The
// answer says what failed in words an administrator can act on, never a secret.
export async function testLoginProvider(ctx: DomainContext, id: string): Promise<{ Ok: boolean; Reason?: string | null; Entries?: number | null }> {
  await requirePermission(ctx, 'login-provider:write');
  const db = await realmDb(ctx.realm);
  const provider = await requireProviderRow(db, id);
  const secret = provider.hasSecret ? await readProviderSecret(db, id) : undefined;
  if (provider.flavor === 'Ldap' && provider.config.Ldap) {
    const r = await testLdapConnection(provider.config.Ldap, secret, { caCertPem: provider.config.Ldap.CaCertificate ?? undefined });
    return r.ok ? { Ok: true, Entries: r.entries } : { Ok: false, Reason: r.reason };
  }
  if (provider.flavor === 'Oidc' && provider.config.Oidc) {
    try {
      await upstreamClient({ providerId: id, version: provider.version, section: provider.config.Oidc, clientSecret: secret });
      return { Ok: true };
    } catch (e) {
      return { Ok: false, Reason: e instanceof Error ? e.message : String(e) };
    }
  }
  throw validationError({ id: [`A ${provider.flavor} provider has no connection to test.`] });
}
