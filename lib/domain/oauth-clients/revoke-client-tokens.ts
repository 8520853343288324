import type { RealmDb, RealmTx } from '../../db/types';

// Everything the OAuth engine stored for a client (codes, refresh tokens, reference access tokens,
// grants, device codes) goes with it, so its outstanding tokens stop working at once. JWT access
// tokens are not stored; Gatehouse's own bearer check rejects them because it looks the client up
// live (lib/domain/access-tokens/bearer-token.ts).
export async function revokeClientTokens(db: RealmDb | RealmTx, clientIds: string[]): Promise<number> {
  if (clientIds.length === 0) return 0;
  const { count } = await db.oidcPayload.deleteMany({ where: { clientId: { in: clientIds } } });
  return count;
}
