import type { RealmDb } from '../../db/types';
import { logError } from '../../log/logger';
import { scrubSecurityLog } from './scrub-security-log';

// The last step of a confirmed self-deletion, run once its archive has been written (or abandoned):
// the browser-session rows (revoked when the account was masked; they hold addresses and browsers)
// are deleted, and the person's security-log entries are scrubbed. Both wait for the archive,
// which lists them. Idempotent; the purge job finishes a deletion whose server stopped half-way.

export type FinishedDeletion = { sessions: number; logEntries: number };

export async function finishDeletion(db: RealmDb, userId: string): Promise<FinishedDeletion> {
  const { count: sessions } = await db.session.deleteMany({ where: { userId } });
  const logEntries = await scrubSecurityLog(db, { userId, ownEntries: true });
  return { sessions, logEntries };
}

/** A deletion is left to its own archive this long before the purge job finishes it instead. */
const GRACE_MS = 60 * 60_000;
/** How far back the purge job looks: a server down longer than this is an operator's matter. */
const LOOKBACK_MS = 7 * 24 * 60 * 60_000;

/** For the purge job: finishes the self-deletions of the last week that did not get to their end. */
export async function finishInterruptedDeletions(db: RealmDb, now: Date, stopped: () => boolean = () => false): Promise<number> {
  const window = { gte: new Date(now.getTime() - LOOKBACK_MS), lte: new Date(now.getTime() - GRACE_MS) };
  let finished = 0;
  let after: string | undefined;
  for (;;) {
    const page = await db.user.findMany({
      where: { anonymizedAt: window, ...(after ? { id: { gt: after } } : {}) },
      select: { id: true },
      orderBy: { id: 'asc' },
      take: 100,
    });
    for (const { id } of page) {
      if (stopped()) return finished;
      try {
        const done = await finishDeletion(db, id);
        if (done.sessions || done.logEntries) finished++;
      } catch (e) {
        logError('finishing an account deletion failed', e, { userId: id });
      }
    }
    if (page.length < 100) return finished;
    after = page[page.length - 1].id;
  }
}
