import { requirePermission } from '../../authz/require-permission';
import type { RealmDb } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { displayNameOf } from '../display-name';
import type { Principal } from './schemas';

// GET /api/principal/lookup (spec 4.7): every active, non-deleted person, every group and every
// active service account, mixed and sorted by display name; no search parameter (the spec gives
// none; pickers filter client-side). Each kind is one source.

type PrincipalSource = (db: RealmDb) => Promise<Principal[]>;

const users: PrincipalSource = async (db) =>
  (
    await db.user.findMany({
      where: { isActive: true, deletedAt: null },
      select: { id: true, userName: true, firstname: true, lastname: true },
    })
  ).map((u) => {
    const displayName = displayNameOf(u);
    return { Id: u.id, Kind: 'User', DisplayName: displayName, Description: displayName === u.userName ? null : u.userName };
  });

const groups: PrincipalSource = async (db) =>
  (await db.group.findMany({ select: { id: true, name: true, description: true } })).map((g) => ({
    Id: g.id,
    Kind: 'Group',
    DisplayName: g.name,
    Description: g.description,
  }));

// Service accounts have no soft delete: a deleted one is gone, so only inactive ones are left out.
const serviceAccounts: PrincipalSource = async (db) =>
  (await db.serviceAccount.findMany({ where: { isActive: true }, select: { id: true, name: true, description: true } })).map((a) => ({
    Id: a.id,
    Kind: 'ServiceAccount',
    DisplayName: a.name,
    Description: a.description,
  }));

const SOURCES: readonly PrincipalSource[] = [users, groups, serviceAccounts];

export async function lookupPrincipals(ctx: DomainContext): Promise<Principal[]> {
  await requirePermission(ctx, 'authorization-group:read');
  const db = await realmDb(ctx.realm);
  const all = (await Promise.all(SOURCES.map((source) => source(db)))).flat();
  return all.sort((a, b) => a.DisplayName.localeCompare(b.DisplayName, undefined, { sensitivity: 'base' }) || a.Id.localeCompare(b.Id));
}
