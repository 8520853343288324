// Permission catalogs as data (spec 2.4, 4.7, 4.8, 5.7). The built-in `gatehouse` application owns
// the realm-internal catalog; `control-plane` (seeded only in the control-plane realm) owns the
// realm-management permissions. `realm:admin` bypasses every check in both.
export const MAIN_APP_SLUG = 'gatehouse';
export const CONTROL_PLANE_APP_SLUG = 'control-plane';
export type AppContextSlug = typeof MAIN_APP_SLUG | typeof CONTROL_PLANE_APP_SLUG;

export const REALM_ADMIN = 'realm:admin';

export type CatalogEntry = { Name: string; Description: string };

const rw = (resource: string, label: string): CatalogEntry[] => [
  { Name: `${resource}:read`, Description: `Read ${label}` },
  { Name: `${resource}:write`, Description: `Create, change and delete ${label}` },
];

export const mainAppCatalog: CatalogEntry[] = [
  { Name: REALM_ADMIN, Description: 'Full administration of the realm' },
  ...rw('user', 'users'),
  ...rw('authorization-group', 'groups'),
  ...rw('permission-role', 'roles'),
  ...rw('service-account', 'service accounts and their credentials'),
  ...rw('position', 'positions and terminals'),
  ...rw('oauth-client', 'OAuth clients'),
  ...rw('oauth-scope', 'OAuth scopes'),
  ...rw('oauth-api', 'OAuth APIs'),
  ...rw('login-provider', 'login providers'),
  ...rw('app', 'applications'),
  ...rw('invite-code', 'invite codes'),
  ...rw('session', 'user sessions'),
  { Name: 'auth-log:read', Description: "Read the realm's security log" },
  { Name: 'gdpr:admin', Description: 'Permanently erase users' },
];

export const controlPlaneCatalog: CatalogEntry[] = [
  { Name: REALM_ADMIN, Description: 'Full administration of every realm' },
  { Name: 'realm:read', Description: 'Read realms' },
  { Name: 'realm:write', Description: 'Create, change, delete realms and invite their administrators' },
  { Name: 'control-plane:realm:write', Description: 'Transfer the control-plane role to another realm' },
  { Name: 'control-plane:platform-audit:read', Description: 'Read the platform audit log' },
];

/** `user:write` -> `user`; `control-plane:realm:write` -> `control-plane:realm`. */
export function resourceOf(permission: string): string {
  const i = permission.lastIndexOf(':');
  return i > 0 ? permission.slice(0, i) : permission;
}
