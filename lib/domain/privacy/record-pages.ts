import { parseStringList } from '../../db/json-list';
import type { RealmDb } from '../../db/types';

// The kinds of personal data that grow without bound (browser sessions, the security log), written
// as JSON text a page at a time: each page is read after the previous one has been handed on, so a
// person with 100,000 log entries costs one page of memory, not 100,000 rows. Pages follow a keyset
// cursor (createdAt, id), which stays correct while new rows arrive behind it.

export const PAGE_SIZE = 500;

type Cursor = { createdAt: Date; id: string };

// The lower bound on createdAt alone lets the engine range-scan its createdAt index from the cursor
// on (an OR by itself would have it scan from the start for every page).
const after = (c: Cursor | undefined) => (c ? { createdAt: { gte: c.createdAt }, OR: [{ createdAt: { gt: c.createdAt } }, { id: { gt: c.id } }] } : {});

/** A JSON array of `pages`' items, as text chunks (one per page). */
async function* jsonArray<T>(pages: AsyncIterable<T[]>, indent: string): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const page of pages) {
    let chunk = '';
    for (const item of page) {
      chunk += `${first ? '' : ','}\n${indent}${JSON.stringify(item)}`;
      first = false;
    }
    if (chunk) yield chunk;
  }
  yield first ? ']' : `\n${indent.slice(2)}]`;
}

function parseDetail(detail: string | null): unknown {
  if (!detail) return undefined;
  try {
    return JSON.parse(detail) as unknown;
  } catch {
    return undefined;
  }
}

/** The person's security-log entries, oldest first (AuthLogEvent rows with their userId). */
export async function* securityLogPages(db: RealmDb, userId: string, pageSize = PAGE_SIZE): AsyncGenerator<Record<string, unknown>[]> {
  let cursor: Cursor | undefined;
  for (;;) {
    const rows = await db.authLogEvent.findMany({
      where: { userId, ...after(cursor) },
      select: { id: true, createdAt: true, category: true, eventType: true, success: true, userName: true, ipAddress: true, userAgent: true, detail: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: pageSize,
    });
    if (!rows.length) return;
    yield rows.map((r) => ({
      Id: r.id,
      CreatedAt: r.createdAt,
      Category: r.category,
      EventType: r.eventType,
      Success: r.success,
      UserName: r.userName,
      IpAddress: r.ipAddress,
      UserAgent: r.userAgent,
      Detail: parseDetail(r.detail),
    }));
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1];
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

/** The person's browser sessions, live and ended, oldest first (never the cookie's digest). */
export async function* browserSessionPages(db: RealmDb, userId: string, pageSize = PAGE_SIZE): AsyncGenerator<Record<string, unknown>[]> {
  let cursor: Cursor | undefined;
  for (;;) {
    const rows = await db.session.findMany({
      where: { userId, ...after(cursor) },
      select: {
        id: true,
        createdAt: true,
        lastSeenAt: true,
        expiresAt: true,
        revokedAt: true,
        ipAddress: true,
        userAgent: true,
        amr: true,
        loginProviderId: true,
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: pageSize,
    });
    if (!rows.length) return;
    yield rows.map((r) => ({
      Id: r.id,
      CreatedAt: r.createdAt,
      LastSeenAt: r.lastSeenAt,
      ExpiresAt: r.expiresAt,
      EndedAt: r.revokedAt,
      IpAddress: r.ipAddress,
      UserAgent: r.userAgent,
      Methods: parseStringList(r.amr),
      LoginProviderId: r.loginProviderId,
    }));
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1];
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

/** security-log.json: `{ "Entries": [ ... ] }`. */
export async function* securityLogJson(db: RealmDb, userId: string): AsyncGenerator<string> {
  yield '{\n  "Entries": ';
  yield* jsonArray(securityLogPages(db, userId), '    ');
  yield '\n}\n';
}

/** sessions.json: the OAuth client sessions (already read) and the browser sessions (streamed). */
export async function* sessionsJson(db: RealmDb, userId: string, clientSessions: readonly unknown[]): AsyncGenerator<string> {
  yield `{\n  "ClientSessions": ${JSON.stringify(clientSessions, null, 2).replace(/\n/g, '\n  ')},\n  "BrowserSessions": `;
  yield* jsonArray(browserSessionPages(db, userId), '    ');
  yield '\n}\n';
}
