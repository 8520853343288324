// Permission catalogs as data (spec 2.4, 4.7, 4.8, 5.7). The built-in `gatehouse` application owns
// the realm-internal catalog; `control-plane` (seeded only in the control-plane realm) owns the
// realm-management permissions. `realm:admin` bypasses every check in both.
//
// The data is `as const`, so the permission names are types: `MainAppPermission`,
// `ControlPlanePermission` and their union `GatehousePermission` are what endpoint declarations,
// requirePermission, the no-escalation guard and the console's `can` accept, and a misspelt or
// removed permission breaks the build. Apps a realm defines have free-form permissions: those stay
// strings (lib/authz/evaluate.ts). This module imports nothing, so the console may import it.
export const MAIN_APP_SLUG = 'gatehouse';
export const CONTROL_PLANE_APP_SLUG = 'control-plane';
export type AppContextSlug = typeof MAIN_APP_SLUG | typeof CONTROL_PLANE_APP_SLUG;

export const REALM_ADMIN = 'realm:admin' as const;

export type CatalogEntry = { readonly Name: string; readonly Description: string };

const rw = <R extends string>(resource: R, label: string) =>
  [
    { Name: `${resource}:read`, Description: `Read ${label}` },
    { Name: `${resource}:write`, Description: `Create, change and delete ${label}` },
  ] as const;

export const mainAppCatalog = [
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
] as const satisfies readonly CatalogEntry[];

export const controlPlaneCatalog = [
  { Name: REALM_ADMIN, Description: 'Full administration of every realm' },
  { Name: 'realm:read', Description: 'Read realms' },
  { Name: 'realm:write', Description: 'Create, change, delete realms and invite their administrators' },
  { Name: 'control-plane:realm:write', Description: 'Transfer the control-plane role to another realm' },
  { Name: 'control-plane:platform-audit:read', Description: 'Read the platform audit log' },
] as const satisfies readonly CatalogEntry[];

export type MainAppPermission = (typeof mainAppCatalog)[number]['Name'];
export type ControlPlanePermission = (typeof controlPlaneCatalog)[number]['Name'];
/** Every permission of Gatehouse's own Apps. */
export type GatehousePermission = MainAppPermission | ControlPlanePermission;
/** The permissions of one of Gatehouse's own Apps. */
export type PermissionOf<A extends AppContextSlug> = A extends typeof CONTROL_PLANE_APP_SLUG ? ControlPlanePermission : MainAppPermission;

/** `user:write` -> `user`; `control-plane:realm:write` -> `control-plane:realm`. */
export function resourceOf(permission: string): string {
  const i = permission.lastIndexOf(':');
  return i > 0 ? permission.slice(0, i) : permission;
}
