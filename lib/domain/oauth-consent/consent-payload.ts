// The parts of the OAuth engine's stored Interaction (an OidcPayload row, model 'Interaction', id =
// the interaction's uid) that the hosted consent page needs. The engine owns that JSON; this reads
// it defensively and without importing the engine, so a shape it does not expect reads as "no
// request" rather than failing the page. Pure.

export type PendingConsent = {
  clientId: string;
  accountId: string;
  /** Scope names the person is asked to grant now, in the order the client requested them. */
  scopes: string[];
  /** Claims asked for through the `claims` parameter that no granted scope covers. */
  claims: string[];
};

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length > 0) : []);

function parse(json: string): Json | null {
  try {
    const value: unknown = JSON.parse(json);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The consent the interaction waits for, or null when it is not waiting for one: malformed, past its
 * `exp` (seconds), already answered (`result` set), or at another prompt (login).
 */
export function pendingConsent(json: string, nowSeconds: number): PendingConsent | null {
  const payload = parse(json);
  if (!payload) return null;
  if (typeof payload.exp !== 'number' || payload.exp <= nowSeconds) return null;
  if (payload.result !== undefined) return null;
  const { params, prompt, session } = payload;
  if (!isObject(params) || !isObject(prompt) || !isObject(session)) return null;
  if (prompt.name !== 'consent') return null;
  const clientId = params.client_id;
  const accountId = session.accountId;
  if (typeof clientId !== 'string' || !clientId || typeof accountId !== 'string' || !accountId) return null;

  const details = isObject(prompt.details) ? prompt.details : {};
  const missing = new Set(strings(details.missingOIDCScope));
  if (isObject(details.missingResourceScopes)) for (const list of Object.values(details.missingResourceScopes)) for (const s of strings(list)) missing.add(s);
  const requested = typeof params.scope === 'string' ? params.scope.split(' ').filter(Boolean) : [];
  // Nothing missing means the client forced the question (prompt=consent): show all it asked for.
  const ordered = missing.size ? [...requested.filter((s) => missing.has(s)), ...[...missing].filter((s) => !requested.includes(s))] : requested;
  return { clientId, accountId, scopes: [...new Set(ordered)], claims: strings(details.missingOIDCClaims) };
}
