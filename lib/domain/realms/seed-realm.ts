import { CONTROL_PLANE_APP_SLUG, MAIN_APP_SLUG, REALM_ADMIN, controlPlaneCatalog, mainAppCatalog } from '../../authz/catalog';
import { newId } from '../../crypto/tokens';
import type { RealmTx } from '../../db/types';
import { BUILT_IN_IDS } from '../built-in-ids';
import { INVITE_READ_SCOPE, INVITE_WRITE_SCOPE, MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE, PASSKEYS_SCOPE } from '../oauth-scopes/gatehouse-scopes';

// Seeded data of every new realm (spec 2.4); the ids of built-ins are in ../built-in-ids.ts.

/**
 * The Management API and its scope (CONTRACT.md "Names"; spec 5.2): a bearer token for Gatehouse's
 * own REST API carries scope `gatehouse.management` and audience `urn:gatehouse:management-api`.
 * Realms made before these were seeded get them from migration 0003_issue4_oauth (same ids).
 */
export const MANAGEMENT_API = { name: 'Gatehouse Management API', audience: MANAGEMENT_AUDIENCE, scope: MANAGEMENT_SCOPE } as const;

const ADMINISTRATORS_GROUP = 'Administrators';

const DEFAULT_SCOPES: { name: string; displayName: string; description: string }[] = [
  { name: 'openid', displayName: 'OpenID', description: 'Sign you in' },
  { name: 'email', displayName: 'E-mail address', description: 'Your e-mail address' },
  { name: 'profile', displayName: 'Profile', description: 'Your name and profile' },
  { name: 'roles', displayName: 'Roles', description: 'Your roles in the application' },
  { name: 'offline_access', displayName: 'Offline access', description: 'Stay signed in' },
  { name: 'permissions', displayName: 'Permissions', description: 'Your permissions in the application' },
];

export async function seedRealm(tx: RealmTx, options: { isControlPlane: boolean; displayName: string }): Promise<void> {
  await tx.oAuthScope.createMany({
    data: DEFAULT_SCOPES.map((s) => ({ id: newId(), name: s.name, displayName: s.displayName, description: s.description, isBuiltIn: true })),
  });
  await seedManagementApi(tx);
  await tx.loginProvider.create({
    data: { id: BUILT_IN_IDS.internalProvider, name: 'Local accounts', flavor: 'Internal', isBuiltIn: true, isActive: true },
  });
  await tx.app.create({
    data: {
      id: BUILT_IN_IDS.mainApp,
      slug: MAIN_APP_SLUG,
      displayName: options.displayName,
      description: 'The built-in application: users, groups and everything else of this realm.',
      isBuiltIn: true,
      permissionCatalog: JSON.stringify(mainAppCatalog),
    },
  });
  if (options.isControlPlane) await ensureControlPlaneApp(tx);
  await tx.permissionRole.create({
    data: {
      id: BUILT_IN_IDS.realmAdminRole,
      name: 'Realm administrator',
      nameNormalized: 'realm administrator',
      description: 'Everything in this realm.',
      appId: BUILT_IN_IDS.mainApp,
      permissions: JSON.stringify([REALM_ADMIN]),
      isBuiltIn: true,
    },
  });
  await tx.group.create({
    data: {
      id: BUILT_IN_IDS.administratorsGroup,
      name: ADMINISTRATORS_GROUP,
      nameNormalized: ADMINISTRATORS_GROUP.toLowerCase(),
      description: 'Realm administrators.',
      boundTo: JSON.stringify(['*']),
      isBuiltIn: true,
      roles: { create: [{ roleId: BUILT_IN_IDS.realmAdminRole }] },
    },
  });
}

async function seedManagementApi(tx: RealmTx): Promise<void> {
  await tx.oAuthApi.create({
    data: {
      id: BUILT_IN_IDS.managementApi,
      name: MANAGEMENT_API.name,
      nameNormalized: MANAGEMENT_API.name.toLowerCase(),
      audience: MANAGEMENT_API.audience,
      displayName: MANAGEMENT_API.name,
      description: "Gatehouse's own REST API, for tools and scripts that manage this realm.",
      isBuiltIn: true,
    },
  });
  await tx.oAuthScope.create({
    data: {
      id: BUILT_IN_IDS.managementScope,
      name: MANAGEMENT_API.scope,
      displayName: 'Manage this realm',
      description: 'Call the Gatehouse Management API with your permissions',
      isBuiltIn: true,
      resources: JSON.stringify([MANAGEMENT_API.audience]),
    },
  });
  // The App-bound invite-code scopes (spec 5.2): tokens for them are Management API tokens whose
  // client's App decides which codes they reach (lib/domain/invite-codes/access.ts).
  await tx.oAuthScope.createMany({ data: INVITE_SCOPES.map((s) => ({ ...s, isBuiltIn: true, resources: JSON.stringify([MANAGEMENT_API.audience]) })) });
  // The person's own passkeys through /connect/passkey (issue 8 item 3); realms seeded before it get
  // it from migration 0004_issue8_passkeys_scope (same id).
  await tx.oAuthScope.create({ data: { ...PASSKEYS_SCOPE_ROW, isBuiltIn: true, resources: JSON.stringify([MANAGEMENT_API.audience]) } });
}

const PASSKEYS_SCOPE_ROW = {
  id: BUILT_IN_IDS.passkeysScope,
  name: PASSKEYS_SCOPE,
  displayName: 'Manage your passkeys',
  description: 'List and remove the passkeys you sign in with',
};

const INVITE_SCOPES = [
  { id: BUILT_IN_IDS.inviteReadScope, name: INVITE_READ_SCOPE, displayName: 'Read invite codes', description: "List the application's invite codes" },
  {
    id: BUILT_IN_IDS.inviteWriteScope,
    name: INVITE_WRITE_SCOPE,
    displayName: 'Manage invite codes',
    description: "Mint and revoke the application's invite codes",
  },
];

/** The `control-plane` application exists only in the realm that holds the flag (spec 2.4). */
export async function ensureControlPlaneApp(tx: RealmTx): Promise<void> {
  await tx.app.upsert({
    where: { slug: CONTROL_PLANE_APP_SLUG },
    update: {},
    create: {
      id: BUILT_IN_IDS.controlPlaneApp,
      slug: CONTROL_PLANE_APP_SLUG,
      displayName: 'Control plane',
      description: 'Realm management: create, change, transfer and delete realms.',
      isBuiltIn: true,
      permissionCatalog: JSON.stringify(controlPlaneCatalog),
    },
  });
}
