import { requirePermission } from '../../authz/require-permission';
import { AppError, validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { keytabFor } from '../external-identity/kerberos/keytab';
import { storeProviderSecret } from './provider-secret';
import { requireProviderRow } from './repo';
import type { ProviderSecretInput } from './schemas';

/** The secret field of each flavor (CONTRACT.md "External identity"); SAML has none (its SP key pair is generated). */
export const SECRET_FIELD = { Oidc: 'ClientSecret', Ldap: 'BindPassword', Kerberos: 'Keytab' } as const;

const MAX_KEYTAB_BYTES = 64 * 1024;

// POST /api/admin/login-providers/{id}/secret: sets (or replaces) the provider's secret, sealed at
// rest; it is never answered.
export async function setProviderSecret(ctx: DomainContext, id: string, input: ProviderSecretInput): Promise<void> {
  await requirePermission(ctx, 'login-provider:write');
  const db = await realmDb(ctx.realm);
  const current = await requireProviderRow(db, id);
  if (current.isBuiltIn) throw new AppError('LoginProvider.BuiltIn');
  const field = SECRET_FIELD[current.flavor as keyof typeof SECRET_FIELD];
  if (!field) throw validationError({ body: [`A ${current.flavor} provider has no secret: its SP key pair is generated.`] });
  const sent = (['ClientSecret', 'BindPassword', 'Keytab'] as const).filter((f) => input[f] !== undefined && input[f] !== null);
  if (sent.length !== 1 || sent[0] !== field) throw validationError({ [field]: [`A ${current.flavor} provider takes exactly { ${field} }.`] });
  let secret = input[field]!;
  if (field === 'Keytab') {
    const bytes = Buffer.from(secret, 'base64');
    // A keytab starts with format version 0x05 0x02 (MIT and Heimdal write version 2).
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(secret) || bytes.length < 4 || bytes.length > MAX_KEYTAB_BYTES || bytes[0] !== 0x05 || bytes[1] !== 0x02) {
      throw validationError({ Keytab: ['Upload the keytab file (base64 of a version 2 keytab, at most 64 KiB).'] });
    }
    // The keytab must hold a key for the provider's own principal (realm included): GSSAPI is only
    // ever given those entries (external-identity/kerberos/spnego.ts), so anything else cannot work.
    const principal = current.config.Kerberos?.ServicePrincipal;
    let usable: Buffer | null;
    try {
      usable = principal ? keytabFor(bytes, principal) : null;
    } catch {
      throw validationError({ Keytab: ['This is not a keytab file MIT Kerberos can read.'] });
    }
    if (!usable) throw validationError({ Keytab: [`The keytab holds no key for ${principal}: export it with ktadd for that principal.`] });
    secret = bytes.toString('base64');
  }
  await storeProviderSecret(db, id, secret);
  await publish(eventFrom(ctx, 'login-provider.secret-set', id, { loginProviderId: id, flavor: current.flavor }));
}
