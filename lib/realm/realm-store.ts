import { getGlobalDb } from '../db/global-db';
import { realmInclude, toRealmRecord, type RealmRecord } from './realm-record';

// Reads of realm records from the global store. Writes belong to lib/domain/realms.

export async function getRealmRecordById(id: string): Promise<RealmRecord | null> {
  const db = await getGlobalDb();
  const row = await db.realm.findUnique({ where: { id }, include: realmInclude });
  return row && row.isProvisioned ? toRealmRecord(row) : null;
}

export async function getRealmRecordBySlug(slug: string): Promise<RealmRecord | null> {
  const db = await getGlobalDb();
  const row = await db.realm.findUnique({ where: { slug }, include: realmInclude });
  return row && row.isProvisioned ? toRealmRecord(row) : null;
}

/** A page of the provisioned realms' databases, in id order after `afterId` (for sweeps over every realm). */
export async function provisionedRealmDatabases(afterId: string | undefined, take: number): Promise<{ id: string; databaseName: string }[]> {
  const db = await getGlobalDb();
  return db.realm.findMany({
    where: { isProvisioned: true, ...(afterId === undefined ? {} : { id: { gt: afterId } }) },
    select: { id: true, databaseName: true },
    orderBy: { id: 'asc' },
    take,
  });
}

export async function getControlPlaneRealm(): Promise<RealmRecord | null> {
  const db = await getGlobalDb();
  const row = await db.realm.findFirst({ where: { isControlPlane: true, isProvisioned: true }, include: realmInclude });
  return row ? toRealmRecord(row) : null;
}
