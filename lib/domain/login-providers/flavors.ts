import { requirePermission } from '../../authz/require-permission';
import type { DomainContext } from '../../realm/context';
import { kerberosAvailability } from '../external-identity/kerberos/spnego';
import { EXTERNAL_FLAVORS } from './schemas';
import { SECRET_FIELD } from './set-provider-secret';

// GET /api/admin/login-providers/flavors: what the console offers. Kerberos needs the optional
// GSSAPI binding; without it the flavor says why instead of failing at sign-in.
export async function listFlavors(ctx: DomainContext) {
  await requirePermission(ctx, 'login-provider:read');
  const kerberos = await kerberosAvailability();
  return EXTERNAL_FLAVORS.map((flavor) => ({
    Flavor: flavor,
    Available: flavor !== 'Kerberos' || kerberos.available,
    Reason: flavor === 'Kerberos' && !kerberos.available ? kerberos.reason : null,
    SecretField: flavor === 'Saml' ? null : SECRET_FIELD[flavor],
  }));
}
