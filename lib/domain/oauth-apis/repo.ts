import type { RealmPrisma, RealmTx } from '../../db/types';
import { parseStringList } from '../../db/json-list';
import { AppError } from '../../errors/app-error';

// Reads and cross-checks of OAuth APIs (spec 4.7 "OAuth APIs"). Scopes name APIs by audience inside
// their `resources` JSON list, so the references are checked here rather than by foreign keys.

export const apiColumns = {
  id: true,
  name: true,
  audience: true,
  displayName: true,
  description: true,
  appId: true,
  isBuiltIn: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies RealmPrisma.OAuthApiSelect;

export type ApiRow = RealmPrisma.OAuthApiGetPayload<{ select: typeof apiColumns }>;

export async function requireApiRow(db: RealmTx, id: string): Promise<ApiRow> {
  const row = await db.oAuthApi.findUnique({ where: { id }, select: apiColumns });
  if (!row) throw new AppError('OAuthApi.NotFound');
  return row;
}

/** The audiences among `audiences` that no API of this realm has, in the order given. */
export async function unknownAudiences(db: RealmTx, audiences: readonly string[]): Promise<string[]> {
  if (audiences.length === 0) return [];
  const found = await db.oAuthApi.findMany({ where: { audience: { in: [...new Set(audiences)] } }, select: { audience: true } });
  const known = new Set(found.map((a) => a.audience));
  return audiences.filter((a) => !known.has(a));
}

/** The scopes whose resources name `audience` (409 blockers of an API delete). */
export async function scopesNamingAudience(db: RealmTx, audience: string): Promise<{ Id: string; Name: string }[]> {
  const rows = await db.oAuthScope.findMany({
    where: { resources: { contains: JSON.stringify(audience) } },
    select: { id: true, name: true, resources: true },
    orderBy: { name: 'asc' },
  });
  return rows.filter((r) => parseStringList(r.resources).includes(audience)).map((r) => ({ Id: r.id, Name: r.name }));
}

/** Whether an App has this id (an API's or a client's AppId must name one). */
export async function appExists(db: RealmTx, appId: string): Promise<boolean> {
  return Boolean(await db.app.findUnique({ where: { id: appId }, select: { id: true } }));
}
