import { open } from '../../crypto/secret-box';
import type { RealmDb, RealmTx } from '../../db/types';

/** The upstream a browser session came through and the ID token it issued (unsealed), if any. */
export async function upstreamOfSession(db: RealmDb, sessionId: string): Promise<{ loginProviderId: string; idToken?: string } | undefined> {
  const row = await db.session.findUnique({ where: { id: sessionId }, select: { loginProviderId: true, upstreamIdTokenEncrypted: true } });
  if (!row?.loginProviderId) return undefined;
  return { loginProviderId: row.loginProviderId, idToken: row.upstreamIdTokenEncrypted ? await open(row.upstreamIdTokenEncrypted) : undefined };
}

/** A deleted provider's sessions stay until they end, without an upstream to log out of: its ID tokens go. */
export async function forgetUpstream(tx: RealmTx, loginProviderId: string): Promise<void> {
  await tx.session.updateMany({ where: { loginProviderId }, data: { loginProviderId: null, upstreamIdTokenEncrypted: null } });
}
