import { CONTROL_PLANE_APP_SLUG, MAIN_APP_SLUG, REALM_ADMIN, controlPlaneCatalog, mainAppCatalog } from '../../authz/catalog';
import { INVITE_READ_SCOPE, INVITE_WRITE_SCOPE, MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE, PASSKEYS_SCOPE } from '../oauth-scopes/gatehouse-scopes';

// What every realm is seeded with (spec 2.4, realms/seed-realm.ts), by natural key. A manifest may
// refer to these (a group holding the realm-administrator role, a client asking for `openid`) but
// never defines them: they are not exported, not changed by apply and never pruned.

export const BUILT_IN_APPS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  [MAIN_APP_SLUG, mainAppCatalog.map((e) => e.Name)],
  // Only in the control-plane realm; apply refuses a reference to it elsewhere.
  [CONTROL_PLANE_APP_SLUG, controlPlaneCatalog.map((e) => e.Name)],
]);

/** The built-in role, as `<app>/<name lower-cased>` (role names are unique per App, ignoring case). */
export const BUILT_IN_ROLE = { App: MAIN_APP_SLUG, Name: 'Realm administrator', permissions: [REALM_ADMIN] } as const;
export const BUILT_IN_GROUP = 'Administrators';
export const BUILT_IN_SCOPES: ReadonlySet<string> = new Set([
  'openid',
  'email',
  'profile',
  'roles',
  'offline_access',
  'permissions',
  MANAGEMENT_SCOPE,
  INVITE_READ_SCOPE,
  INVITE_WRITE_SCOPE,
  PASSKEYS_SCOPE,
]);
export const BUILT_IN_AUDIENCE = MANAGEMENT_AUDIENCE;

export function roleKey(app: string, name: string): string {
  return `${app}/${name.toLowerCase()}`;
}

export const groupKey = (name: string): string => name.toLowerCase();
