import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { parseProviderConfig, type ProviderConfig } from './provider-config';
import { providersWithSecret } from './provider-secret';

// Reads of login providers (spec 2.5). The sealed secret is not among the columns read here: only
// provider-secret.ts reads it, when a sign-in needs it.
export const providerColumns = {
  id: true,
  name: true,
  flavor: true,
  slug: true,
  isBuiltIn: true,
  isActive: true,
  config: true,
  version: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies RealmPrisma.LoginProviderSelect;

type ProviderRecord = RealmPrisma.LoginProviderGetPayload<{ select: typeof providerColumns }>;
export type ProviderRow = Omit<ProviderRecord, 'config'> & { config: ProviderConfig; hasSecret: boolean };

async function withSecretFlag(db: RealmTx, rows: ProviderRecord[]): Promise<ProviderRow[]> {
  if (rows.length === 0) return [];
  const has = await providersWithSecret(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, config: parseProviderConfig(r.config), hasSecret: has.has(r.id) }));
}

export async function findProviderRow(db: RealmTx, id: string): Promise<ProviderRow | undefined> {
  const row = await db.loginProvider.findUnique({ where: { id }, select: providerColumns });
  return row ? (await withSecretFlag(db, [row]))[0] : undefined;
}

export async function requireProviderRow(db: RealmTx, id: string): Promise<ProviderRow> {
  const row = await findProviderRow(db, id);
  if (!row) throw new AppError('LoginProvider.NotFound');
  return row;
}

export async function readProviderRows(db: RealmTx, where: RealmPrisma.LoginProviderWhereInput = {}): Promise<ProviderRow[]> {
  const rows = await db.loginProvider.findMany({ where, select: providerColumns, orderBy: [{ isBuiltIn: 'desc' }, { name: 'asc' }, { id: 'asc' }] });
  return withSecretFlag(db, rows);
}

/** An active provider of one flavor, or undefined: what a sign-in route starts from. */
export async function activeProvider(db: RealmTx, id: string, flavor: string): Promise<ProviderRow | undefined> {
  const row = await findProviderRow(db, id);
  return row && row.isActive && row.flavor === flavor ? row : undefined;
}
