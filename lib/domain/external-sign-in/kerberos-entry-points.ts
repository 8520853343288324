import { realmDb, type DomainContext } from '../../realm/context';
import { readProviderRows } from '../login-providers/repo';

// The Kerberos buttons of the hosted sign-in page (spec 4.5). The public list
// (GET /api/account/external-logins) carries only OIDC and SAML, so the page reads these on the
// server. A provider without its keytab cannot accept a ticket, so it gets no button.
export async function listKerberosEntryPoints(ctx: DomainContext): Promise<{ Id: string; Name: string }[]> {
  const rows = await readProviderRows(await realmDb(ctx.realm), { isActive: true, flavor: 'Kerberos' });
  return rows.filter((r) => r.hasSecret).map((r) => ({ Id: r.id, Name: r.name }));
}
