import type { RealmPrisma, RealmTx } from '../../db/types';

// What the realm's security log keeps of a person who is gone (self-deletion or erasure; spec 3.5):
// the events' type, category, outcome and time, for the realm's audit, and the person's id (a
// random id that names nobody once the account holds no personal data). What named or located them
// goes: the user name, the address and browser the request came from, and the name inside the
// event's facts (events carry PII-free facts, docs/contributing.md, except a `userName` where no
// actor names the person, e.g. a failed sign-in).

/** Keys of an event's facts that can hold a name or an address (lib/events/catalog.ts). */
const PII_KEYS = new Set(['userName', 'email']);
const PAGE = 500;

/** The facts JSON without its name-bearing keys (at any depth); null when it was not JSON. */
export function redactDetail(detail: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(detail);
  } catch {
    return null;
  }
  const strip = (v: unknown, depth: number): unknown => {
    if (Array.isArray(v)) return depth > 4 ? [] : v.map((x) => strip(x, depth + 1));
    if (typeof v !== 'object' || v === null) return v;
    if (depth > 4) return {};
    return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (PII_KEYS.has(k) ? [] : [[k, strip(x, depth + 1)]])));
  };
  return JSON.stringify(strip(value, 0));
}

export type ScrubTarget = {
  userId: string;
  /** The entries whose userId is the person's (what the data export lists). */
  ownEntries: boolean;
  /**
   * The names the person signed in with (user name and address, as stored and lower-cased): entries
   * of attempts no account was resolved for carry only the typed name. Pass them only while the
   * account still holds them, before the names are freed for someone else.
   */
  names?: readonly string[];
};

/** The names an entry may carry for the person (as stored and lower-cased). */
export function signInNames(user: { userName: string; email: string }): string[] {
  return [...new Set([user.userName, user.userName.toLowerCase(), user.email, user.email.toLowerCase()])];
}

/** Scrubs the person's entries; answers how many it changed. Idempotent. */
export async function scrubSecurityLog(db: RealmTx, target: ScrubTarget): Promise<number> {
  const names = [...new Set((target.names ?? []).filter(Boolean))];
  const parts: RealmPrisma.AuthLogEventWhereInput[] = [];
  if (target.ownEntries) parts.push({ userId: target.userId });
  // Entries of attempts no account was resolved for (an entry with an account names that account).
  if (names.length) parts.push({ userName: { in: names }, userId: null });
  if (!parts.length) return 0;
  const theirs: RealmPrisma.AuthLogEventWhereInput = { OR: parts };

  // The facts first, while the name column still finds the entries keyed by a typed name. Entries
  // of one kind carry the same facts, so each distinct text is rewritten by one statement.
  const named: RealmPrisma.AuthLogEventWhereInput = { AND: [theirs, { OR: [...PII_KEYS].map((k) => ({ detail: { contains: `"${k}"` } })) }] };
  const unchanged: string[] = [];
  for (;;) {
    const rows = await db.authLogEvent.findMany({
      where: { AND: [named, ...(unchanged.length ? [{ detail: { notIn: unchanged } }] : [])] },
      select: { detail: true },
      take: PAGE,
    });
    const texts = [...new Set(rows.map((r) => r.detail).filter((d): d is string => d !== null))];
    if (!texts.length) break;
    for (const text of texts) {
      const redacted = redactDetail(text);
      // A key's name inside a value, not a key: nothing to drop, and not to be found again.
      if (redacted === text) unchanged.push(text);
      else await db.authLogEvent.updateMany({ where: { AND: [theirs, { detail: text }] }, data: { detail: redacted } });
    }
  }

  const { count } = await db.authLogEvent.updateMany({
    where: { AND: [theirs, { OR: [{ userName: { not: null } }, { ipAddress: { not: null } }, { userAgent: { not: null } }] }] },
    data: { userName: null, ipAddress: null, userAgent: null },
  });
  return count;
}
