import type { MainAppPermission } from '../../authz/catalog';

// Gatehouse's own API as an OAuth resource (CONTRACT "Names", spec 5.2): its audience, its scopes,
// and what a person must hold to put each of them on a client. Seeded in every realm; dynamic
// registration may not ask for them, and the person always consents to them explicitly.
export const MANAGEMENT_AUDIENCE = 'urn:gatehouse:management-api';
export const MANAGEMENT_SCOPE = 'gatehouse.management';
export const INVITE_READ_SCOPE = 'invite:read';
export const INVITE_WRITE_SCOPE = 'invite:write';
/** Lets a token list and revoke its subject's own passkeys (`/connect/passkey`). */
export const PASSKEYS_SCOPE = 'gatehouse.passkeys';

/** The scopes that admit an invite-code action: writing implies reading. */
export const INVITE_SCOPES_FOR: Record<'read' | 'write', readonly string[]> = {
  read: [INVITE_READ_SCOPE, INVITE_WRITE_SCOPE],
  write: [INVITE_WRITE_SCOPE],
};

/**
 * The permission a person needs to put each of Gatehouse's own scopes on a client (issue 8 item 4):
 * `gatehouse.management` lets the client act with every permission of whoever consents, so only a
 * realm administrator may hand it out; the invite scopes mint and read an App's invite codes with no
 * person behind them; `gatehouse.passkeys` lets the client revoke people's sign-in credentials,
 * which is what `user:write` allows an administrator.
 */
export const GATEHOUSE_SCOPE_PERMISSION: Readonly<Record<string, MainAppPermission>> = {
  [MANAGEMENT_SCOPE]: 'realm:admin',
  [INVITE_READ_SCOPE]: 'invite-code:read',
  [INVITE_WRITE_SCOPE]: 'invite-code:write',
  [PASSKEYS_SCOPE]: 'user:write',
};

export const ADMIN_ONLY_SCOPES: ReadonlySet<string> = new Set(Object.keys(GATEHOUSE_SCOPE_PERMISSION));

/** Gatehouse's own scopes among `scopes`. */
export function gatehouseScopesIn(scopes: Iterable<string>): string[] {
  return [...new Set(scopes)].filter((s) => ADMIN_ONLY_SCOPES.has(s));
}
