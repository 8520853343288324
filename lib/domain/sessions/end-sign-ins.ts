import type { RealmDb, RealmTx } from '../../db/types';
import { revokeAllClientSessions } from './client-sessions';
import { revokeUserSessions } from './repo';

export type EndedSignIns = { browserSessions: number; engineRecords: number };

/**
 * Ends every way the person is signed in: browser sessions (all, or all but the one the caller keeps)
 * and every OAuth client session with its token family (grants, refresh and access tokens, codes,
 * the engine's own sessions). A new password, a reset or an administrator's set must reach the
 * relying parties too, or a refresh token obtained with the old password would outlive it.
 * One transaction, so no half-ended state is left behind.
 */
export async function endSignIns(db: RealmDb, userId: string, keepSessionId?: string): Promise<EndedSignIns> {
  return db.$transaction((tx) => endSignInsIn(tx, userId, keepSessionId));
}

/**
 * The same inside the caller's transaction, for a change of the person's state that must not commit
 * without it (a deletion, a deactivation): a restore or a reactivation later finds no refresh token
 * from before to come back with (docs/security.md, "Deletion and deactivation end every sign-in").
 */
export async function endSignInsIn(tx: RealmTx, userId: string, keepSessionId?: string): Promise<EndedSignIns> {
  const browserSessions = await revokeUserSessions(tx, userId, keepSessionId);
  const engineRecords = await revokeAllClientSessions(tx, userId);
  return { browserSessions, engineRecords };
}
