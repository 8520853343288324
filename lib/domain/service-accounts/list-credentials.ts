import { requirePermission } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../context';
import type { Page, PageQuery } from '../paging';
import { credentialColumns, withClients, type CredentialView } from './credential-repo';
import { requireServiceAccountRow } from './repo';

// GET /api/service-account/{id}/credentials (spec 4.7 "Credentials"): newest first, paged (spec 4.9).
export async function listCredentials(ctx: DomainContext, serviceAccountId: string, q: Pick<PageQuery, 'page' | 'pageSize'>): Promise<Page<CredentialView>> {
  await requirePermission(ctx, 'service-account:read');
  const db = await realmDb(ctx.realm);
  await requireServiceAccountRow(db, serviceAccountId);
  const where = { serviceAccountId };
  const [total, rows] = await Promise.all([
    db.serviceAccountCredential.count({ where }),
    db.serviceAccountCredential.findMany({
      where,
      select: credentialColumns,
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
    }),
  ]);
  return { items: await withClients(db, rows), totalCount: total, page: q.page, pageSize: q.pageSize };
}
