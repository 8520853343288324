import type { RealmDb, RealmTx } from '../../db/types';

// Native and OAuth client sessions (spec 4.6): one per grant the OAuth engine holds for the person
// and a client. Revoking one removes the grant and every code and token issued under it (its token
// family), so the client has to sign the person in again.
export type ClientSessionDto = { Id: string; ClientId: string; ClientName: string; Scopes: string[]; CreatedAt: Date; ExpiresAt?: Date };

type GrantPayload = { clientId?: string; iat?: number; openid?: { scope?: string }; resources?: Record<string, string> };

export async function listClientSessions(db: RealmDb, userId: string): Promise<ClientSessionDto[]> {
  const rows = await db.oidcPayload.findMany({
    where: { model: 'Grant', accountId: userId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    select: { id: true, payload: true, clientId: true, createdAt: true, expiresAt: true },
    orderBy: { createdAt: 'desc' },
  });
  const clientIds = [...new Set(rows.map((r) => r.clientId).filter((c): c is string => Boolean(c)))];
  const clients = await db.oAuthClient.findMany({ where: { clientId: { in: clientIds } }, select: { clientId: true, displayName: true } });
  const names = new Map(clients.map((c) => [c.clientId, c.displayName]));
  return rows.map((r) => {
    const payload = JSON.parse(r.payload) as GrantPayload;
    const scopes = new Set((payload.openid?.scope ?? '').split(' ').filter(Boolean));
    for (const s of Object.values(payload.resources ?? {})) for (const x of s.split(' ').filter(Boolean)) scopes.add(x);
    const clientId = r.clientId ?? payload.clientId ?? '';
    return {
      Id: r.id,
      ClientId: clientId,
      ClientName: names.get(clientId) ?? clientId,
      Scopes: [...scopes],
      CreatedAt: payload.iat ? new Date(payload.iat * 1000) : r.createdAt,
      ...(r.expiresAt ? { ExpiresAt: r.expiresAt } : {}),
    };
  });
}

/** Removes one of the person's client sessions and its token family; false when it is not theirs. */
export async function revokeClientSession(db: RealmDb, userId: string, grantId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const grant = await tx.oidcPayload.findUnique({ where: { model_id: { model: 'Grant', id: grantId } }, select: { accountId: true } });
    if (!grant || grant.accountId !== userId) return false;
    await tx.oidcPayload.deleteMany({ where: { OR: [{ grantId }, { model: 'Grant', id: grantId }] } });
    return true;
  });
}

/** Everything the engine holds for the person: grants, tokens, codes and its own sessions. */
export async function revokeAllClientSessions(db: RealmDb | RealmTx, userId: string): Promise<number> {
  const grants = await db.oidcPayload.findMany({ where: { model: 'Grant', accountId: userId }, select: { id: true } });
  const ids = grants.map((g) => g.id);
  const { count } = await db.oidcPayload.deleteMany({ where: { OR: [{ accountId: userId }, ...(ids.length ? [{ grantId: { in: ids } }] : [])] } });
  return count;
}
