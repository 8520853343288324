import { realmDb, type DomainContext } from '../../realm/context';
import { readProviderRows } from '../login-providers/repo';

// GET /api/account/external-logins (spec 4.5): the buttons of the hosted sign-in page. Anonymous, so
// it answers only what a button needs: no settings, no secrets.
export async function listExternalLogins(ctx: DomainContext): Promise<{ Id: string; Name: string; Kind: 'Oidc' | 'Saml'; Slug?: string | null }[]> {
  const rows = await readProviderRows(await realmDb(ctx.realm), { isActive: true, flavor: { in: ['Oidc', 'Saml'] } });
  return rows.map((r) => ({ Id: r.id, Name: r.name, Kind: r.flavor as 'Oidc' | 'Saml', Slug: r.flavor === 'Saml' ? r.slug : null }));
}
