import { requirePermission } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPage, type Page, type PageQuery } from '../paging';
import { credentialColumns, withClients, type CredentialView } from './credential-repo';
import { requireServiceAccountRow } from './repo';

// GET /api/service-account/{id}/credentials (spec 4.7 "Credentials"): newest first, paged (spec 4.9).
export async function listCredentials(ctx: DomainContext, serviceAccountId: string, q: Pick<PageQuery, 'page' | 'pageSize'>): Promise<Page<CredentialView>> {
  await requirePermission(ctx, 'service-account:read');
  const db = await realmDb(ctx.realm);
  await requireServiceAccountRow(db, serviceAccountId);
  const where = { serviceAccountId };
  return readPage(
    q,
    () => db.serviceAccountCredential.count({ where }),
    async (window) =>
      withClients(
        db,
        await db.serviceAccountCredential.findMany({ where, select: credentialColumns, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], ...window }),
      ),
  );
}
