import { requirePermission } from '../../authz/require-permission';
import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { mapPage, readPage, sortEntry, type Page, type PageQuery } from '../paging';
import { assertPositionTerminalsEnabled } from './feature';
import { toPositionDto } from './position-dto';
import { positionColumns, requirePositionRow, terminalClientIds, terminalCounts } from './repo';
import type { PositionDto } from './schemas';

// GET /api/position and GET /api/position/{id} (spec 4.7 "Positions"; paging and search spec 4.9).

type Order = RealmPrisma.PositionOrderByWithRelationInput;
const SORTS: Record<string, (dir: 'asc' | 'desc') => Order> = {
  name: (dir) => ({ nameNormalized: dir }),
  createdat: (dir) => ({ createdAt: dir }),
  isactive: (dir) => ({ isActive: dir }),
};

/** `search` matches part of the name, case-insensitively; sortBy name (default), createdAt or isActive. */
export async function listPositions(ctx: DomainContext, q: PageQuery): Promise<Page<PositionDto>> {
  await assertPositionTerminalsEnabled(ctx.realm);
  await requirePermission(ctx, 'position:read');
  const db = await realmDb(ctx.realm);
  const term = q.search?.trim().toLowerCase();
  const where: RealmPrisma.PositionWhereInput = term ? { nameNormalized: { contains: term } } : {};
  const sort = sortEntry(SORTS, q.sortBy, 'name');
  const page = await readPage(
    q,
    () => db.position.count({ where }),
    (window) => db.position.findMany({ where, select: positionColumns, orderBy: [sort(q.sortDescending ? 'desc' : 'asc'), { id: 'asc' }], ...window }),
  );
  const counts = await terminalCounts(
    db,
    page.items.map((p) => p.id),
  );
  return mapPage(page, (p) => toPositionDto(p, { count: counts.get(p.id) ?? 0 }));
}

export async function getPosition(ctx: DomainContext, id: string): Promise<PositionDto> {
  await assertPositionTerminalsEnabled(ctx.realm);
  await requirePermission(ctx, 'position:read');
  const db = await realmDb(ctx.realm);
  const row = await requirePositionRow(db, id);
  return toPositionDto(row, { count: 0, clientIds: await terminalClientIds(db, id) });
}
