import { open, seal } from '../crypto/secret-box';

// How the engine's records are kept in OidcPayload (issue 8 item 5): a database dump must yield no
// usable token. The engine's ids are its bearer values (opaque access and refresh tokens,
// authorization and device codes, registration access tokens, session cookies, interaction uids),
// so rows are keyed by their SHA-256 (they are 128+ bit random values: a plain digest suffices, as
// for every other Gatehouse secret), and so are the looked-up columns (grantId, uid, userCode).
// Inside the JSON, the fields that repeat a bearer value (`jti`, a device flow's `userCode`, an
// interaction's `session.cookie`) are sealed with the platform key, because the engine must read
// them back when it finds a record by another column (a session by uid, a device code by user
// code). Everything else stays plain JSON, which Gatehouse's own readers (client sessions, consent
// page, bearer check) read as before.
//
// A record the engine only ever finds by its id does not keep its `jti` at all: the id is the jti,
// and the reader has it in hand (`withoutId` / `withId`). That spares a seal on every token written
// and an open on every token read (issue 14: AES-GCM was a visible share of an introspection).

const SEALED_FIELDS = new Set(['jti', 'userCode', 'cookie']);
const SEALED_PREFIX = 'sealed:';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// Payloads carry request parameters (an interaction's `params`), so keys are the caller's: the copy
// is built with Object.fromEntries, where a key named `__proto__` stays a plain own key.
async function mapSecrets(value: Json, depth: number, f: (s: string) => Promise<string>): Promise<Json> {
  const entries: [string, unknown][] = [];
  for (const [k, v] of Object.entries(value)) {
    if (SEALED_FIELDS.has(k) && typeof v === 'string') entries.push([k, await f(v)]);
    else if (isObject(v) && depth < 3) entries.push([k, await mapSecrets(v, depth + 1, f)]);
    else entries.push([k, v]);
  }
  return Object.fromEntries(entries);
}

/** Whether mapSecrets would change anything: a string under a sealed field's name, down to its depth. */
function hasSecrets(value: Json, depth: number): boolean {
  for (const [k, v] of Object.entries(value)) {
    if (SEALED_FIELDS.has(k) && typeof v === 'string') return true;
    if (isObject(v) && depth < 3 && hasSecrets(v, depth + 1)) return true;
  }
  return false;
}

/** The JSON to store for an engine payload, its bearer values sealed. */
export async function encodePayload(payload: Json): Promise<string> {
  if (!hasSecrets(payload, 0)) return JSON.stringify(payload);
  return JSON.stringify(await mapSecrets(payload, 0, async (s) => `${SEALED_PREFIX}${await seal(s)}`));
}

export const NEEDS_OPENING = Symbol('sealed fields to open');

/**
 * The engine payload of stored JSON in which nothing is sealed (most tokens, see withoutId), at once;
 * undefined when it cannot be read; NEEDS_OPENING when decodePayload must open sealed fields.
 */
export function decodePlainPayload<T extends Json = Json>(stored: string): T | undefined | typeof NEEDS_OPENING {
  if (stored.includes(`"${SEALED_PREFIX}`)) return NEEDS_OPENING;
  try {
    const parsed: unknown = JSON.parse(stored);
    return isObject(parsed) ? (parsed as T) : undefined;
  } catch {
    return undefined;
  }
}

/** The engine payload back from its stored JSON; undefined when it cannot be read (another key). */
export async function decodePayload<T extends Json = Json>(stored: string): Promise<T | undefined> {
  const plain = decodePlainPayload<T>(stored);
  if (plain !== NEEDS_OPENING) return plain;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!isObject(parsed)) return undefined;
    return (await mapSecrets(parsed, 0, async (s) => (s.startsWith(SEALED_PREFIX) ? open(s.slice(SEALED_PREFIX.length)) : s))) as T;
  } catch {
    return undefined;
  }
}

/** The payload to store for a record found only by its id: its jti is that id, so it is left out. */
export function withoutId(payload: Json, id: string): Json {
  if (payload.jti !== id) return payload;
  const rest: Json = { ...payload };
  delete rest.jti;
  return rest;
}

/** A payload read by its id, with the jti that withoutId left out put back. */
export function withId<T extends Json>(payload: T, id: string): T {
  return 'jti' in payload ? payload : { ...payload, jti: id };
}
