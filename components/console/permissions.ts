import { CONTROL_PLANE_APP_SLUG, REALM_ADMIN, resourceOf, type ControlPlanePermission, type MainAppPermission } from '@/lib/authz/catalog';

// What the signed-in user may use, from GET /api/account/me's pre-expanded permissions (spec 5.7):
// `realm:admin` means everything, `<resource>:admin` everything on that resource. The server checks
// every call again; this only decides what the console shows. Permission names are the catalog's
// types (lib/authz/catalog.ts), so a page cannot ask for a permission Gatehouse does not have.

export type Viewer = {
  Permissions: readonly string[];
  ControlPlanePermissions?: readonly string[];
  IsControlPlane: boolean;
  /** Realm feature switches that hide whole pages (spec 3.6: positions while PositionTerminals is off). */
  Features?: { PositionTerminals?: boolean };
};

export function can(viewer: Viewer, permission: MainAppPermission): boolean;
export function can(viewer: Viewer, permission: ControlPlanePermission, app: typeof CONTROL_PLANE_APP_SLUG): boolean;
export function can(viewer: Viewer, permission: string, app?: typeof CONTROL_PLANE_APP_SLUG): boolean {
  const granted = app === CONTROL_PLANE_APP_SLUG ? (viewer.IsControlPlane ? (viewer.ControlPlanePermissions ?? []) : []) : viewer.Permissions;
  return granted.includes(REALM_ADMIN) || granted.includes(permission) || granted.includes(`${resourceOf(permission)}:admin`);
}

type NavSection = 'Directory' | 'Integrations' | 'Security' | 'Platform';
export type NavItem = { href: string; label: string; description: string; section: NavSection; feature?: keyof NonNullable<Viewer['Features']> } & (
  { permission: MainAppPermission; app?: undefined } | { permission: ControlPlanePermission; app: typeof CONTROL_PLANE_APP_SLUG }
);

const NAV_ITEMS: NavItem[] = [
  { href: '/console/users', label: 'Users', description: 'People who can sign in to this realm.', permission: 'user:read', section: 'Directory' },
  {
    href: '/console/groups',
    label: 'Groups',
    description: 'Memberships, nesting and the roles they grant.',
    permission: 'authorization-group:read',
    section: 'Directory',
  },
  {
    href: '/console/roles',
    label: 'Roles',
    description: "Named sets of an application's permissions.",
    permission: 'permission-role:read',
    section: 'Directory',
  },
  {
    href: '/console/change-requests',
    label: 'Change requests',
    description: 'Profile changes waiting for a decision.',
    permission: 'user:write',
    section: 'Directory',
  },
  {
    href: '/console/apps',
    label: 'Applications',
    description: 'Their permissions, addresses, branding and sign-up rules.',
    permission: 'app:read',
    section: 'Integrations',
  },
  {
    href: '/console/invite-codes',
    label: 'Invite codes',
    description: 'Single-use codes to sign up to an application.',
    permission: 'invite-code:read',
    section: 'Directory',
  },
  {
    href: '/console/oauth/clients',
    label: 'OAuth clients',
    description: 'Applications that sign people in or call APIs.',
    permission: 'oauth-client:read',
    section: 'Integrations',
  },
  {
    href: '/console/oauth/apis',
    label: 'OAuth APIs',
    description: 'Resource servers tokens are issued for, by audience.',
    permission: 'oauth-api:read',
    section: 'Integrations',
  },
  {
    href: '/console/oauth/scopes',
    label: 'OAuth scopes',
    description: 'What clients may ask for, and the APIs each grants.',
    permission: 'oauth-scope:read',
    section: 'Integrations',
  },
  {
    href: '/console/service-accounts',
    label: 'Service accounts',
    description: 'Machine principals and their client credentials.',
    permission: 'service-account:read',
    section: 'Integrations',
  },
  {
    href: '/console/positions',
    label: 'Positions',
    description: 'Places where terminals act, such as tills and kiosks.',
    permission: 'position:read',
    feature: 'PositionTerminals',
    section: 'Integrations',
  },
  {
    href: '/console/login-providers',
    label: 'Login providers',
    description: 'Corporate identity providers, directories and Windows domains people sign in with.',
    permission: 'login-provider:read',
    section: 'Integrations',
  },
  {
    href: '/console/security-log',
    label: 'Security log',
    description: 'Sign-ins and other security events of this realm.',
    permission: 'auth-log:read',
    section: 'Security',
  },
  {
    href: '/console/settings',
    label: 'Realm settings',
    description: 'Sign-in methods, two-factor, passwords, registration and branding.',
    permission: 'realm:admin',
    section: 'Security',
  },
  {
    href: '/console/configuration',
    label: 'Configuration',
    description: 'The realm as a manifest: export, preview and apply.',
    permission: 'realm:admin',
    section: 'Security',
  },
  {
    href: '/console/realms',
    label: 'Realms',
    description: 'Create, change and retire realms.',
    permission: 'realm:read',
    app: 'control-plane',
    section: 'Platform',
  },
  {
    href: '/console/platform-audit',
    label: 'Platform audit',
    description: 'Realm-level events across the platform.',
    permission: 'control-plane:platform-audit:read',
    app: 'control-plane',
    section: 'Platform',
  },
];

export function visibleNav(viewer: Viewer): NavItem[] {
  return NAV_ITEMS.filter(
    (item) => (!item.feature || viewer.Features?.[item.feature] === true) && (item.app ? can(viewer, item.permission, item.app) : can(viewer, item.permission)),
  );
}

/**
 * Whether the console has anything for this person: a permission of Gatehouse's own Apps. Everyone
 * else (end users) sees only their account area: the console layout sends them there, and the
 * frame shows them no console navigation.
 */
export function hasConsoleAccess(viewer: Viewer): boolean {
  return viewer.Permissions.length > 0 || (viewer.IsControlPlane && (viewer.ControlPlanePermissions?.length ?? 0) > 0);
}
