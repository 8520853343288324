import { normalizeEmail } from '../users/insert-user';
import type { ProfileFields, ProfileRequestInput } from './schemas';

// The pure part of a change request (spec 3.4): which requested values differ from the user's, and
// what approving them writes. Only differences count, so a request that repeats the current values
// is empty. Names compare trimmed; an address compares without regard to case, as it is unique.

export type ProfileValues = { firstname: string | null; lastname: string | null; acronym: string | null; email: string };

const NAME_FIELDS = [
  ['Firstname', 'firstname'],
  ['Lastname', 'lastname'],
  ['Acronym', 'acronym'],
] as const;

export function diffProfile(current: ProfileValues, requested: ProfileRequestInput): ProfileFields {
  const changes: ProfileFields = {};
  for (const [field, column] of NAME_FIELDS) {
    const value = requested[field];
    if (value === undefined) continue;
    const wanted = (value ?? '').trim();
    if (wanted !== (current[column] ?? '').trim()) changes[field] = wanted;
  }
  const email = requested.Email?.trim();
  if (email && normalizeEmail(email) !== normalizeEmail(current.email)) changes.Email = email;
  return changes;
}

/** The stored JSON, read defensively: only known fields, only strings. */
export function parseChanges(json: string): ProfileFields {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const out: ProfileFields = {};
  for (const key of ['Firstname', 'Lastname', 'Acronym', 'Email'] as const) if (typeof r[key] === 'string') out[key] = r[key];
  return out;
}

/** The user's values in request shape (empty fields omitted). */
export function currentFields(u: ProfileValues): ProfileFields {
  return { Firstname: u.firstname ?? undefined, Lastname: u.lastname ?? undefined, Acronym: u.acronym ?? undefined, Email: u.email };
}

/** The user columns an approval writes: "" clears a name; a new address arrives confirmed (it was verified). */
export function approvedUserData(changes: ProfileFields): {
  firstname?: string | null;
  lastname?: string | null;
  acronym?: string | null;
  email?: string;
  emailNormalized?: string;
  emailConfirmed?: boolean;
} {
  const text = (v: string | undefined) => (v === undefined ? undefined : v.trim() || null);
  return {
    firstname: text(changes.Firstname),
    lastname: text(changes.Lastname),
    acronym: text(changes.Acronym),
    ...(changes.Email ? { email: changes.Email.trim(), emailNormalized: normalizeEmail(changes.Email), emailConfirmed: true } : {}),
  };
}
