import type { RealmPrisma, RealmTx } from '../../db/types';
import { parseStringList } from '../../db/json-list';
import { AppError } from '../../errors/app-error';

// Reads and cross-checks of OAuth scopes (spec 4.7 "OAuth scopes"). Clients name scopes by name and
// scopes name APIs by audience, both inside JSON list columns, so the references are checked here
// rather than by foreign keys.

export const scopeColumns = {
  id: true,
  name: true,
  displayName: true,
  description: true,
  isBuiltIn: true,
  resources: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies RealmPrisma.OAuthScopeSelect;

export type ScopeRow = RealmPrisma.OAuthScopeGetPayload<{ select: typeof scopeColumns }>;

export async function requireScopeRow(db: RealmTx, id: string): Promise<ScopeRow> {
  const row = await db.oAuthScope.findUnique({ where: { id }, select: scopeColumns });
  if (!row) throw new AppError('OAuthScope.NotFound');
  return row;
}

/** The names among `names` that are not scopes of this realm, in the order given. */
export async function unknownScopes(db: RealmTx, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const found = await db.oAuthScope.findMany({ where: { name: { in: [...new Set(names)] } }, select: { name: true } });
  const known = new Set(found.map((s) => s.name));
  return names.filter((n) => !known.has(n));
}

/**
 * The clients that list scope `name` (409 blockers of a delete or rename). The JSON column is
 * narrowed with LIKE and then read exactly: SQLite's LIKE ignores case, scope names do not.
 */
async function clientsListingScope(db: RealmTx, name: string): Promise<{ Id: string; ClientId: string }[]> {
  const rows = await db.oAuthClient.findMany({
    where: { scopes: { contains: JSON.stringify(name) } },
    select: { id: true, clientId: true, scopes: true },
    orderBy: { clientId: 'asc' },
  });
  return rows.filter((r) => parseStringList(r.scopes).includes(name)).map((r) => ({ Id: r.id, ClientId: r.clientId }));
}

/** 409 OAuthScope.InUse naming every client that still lists the scope. */
export async function assertScopeUnused(db: RealmTx, name: string, action: string): Promise<void> {
  const clients = await clientsListingScope(db, name);
  if (clients.length) {
    throw new AppError('OAuthScope.InUse', {
      detail: `Remove ${name} from these clients before you ${action} it: ${clients.map((c) => c.ClientId).join(', ')}.`,
      extensions: { clients },
    });
  }
}
