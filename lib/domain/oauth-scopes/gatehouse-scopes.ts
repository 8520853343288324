// Gatehouse's own API as an OAuth resource (CONTRACT "Names", spec 5.2): its audience, its scope, and
// the App-bound invite-code scopes. Seeded in every realm; only an administrator gives them to a
// client (dynamic registration may not ask for them).
export const MANAGEMENT_AUDIENCE = 'urn:gatehouse:management-api';
export const MANAGEMENT_SCOPE = 'gatehouse.management';
export const INVITE_READ_SCOPE = 'invite:read';
export const INVITE_WRITE_SCOPE = 'invite:write';

/** The scopes that admit an invite-code action: writing implies reading. */
export const INVITE_SCOPES_FOR: Record<'read' | 'write', readonly string[]> = {
  read: [INVITE_READ_SCOPE, INVITE_WRITE_SCOPE],
  write: [INVITE_WRITE_SCOPE],
};

export const ADMIN_ONLY_SCOPES: ReadonlySet<string> = new Set([MANAGEMENT_SCOPE, INVITE_READ_SCOPE, INVITE_WRITE_SCOPE]);
