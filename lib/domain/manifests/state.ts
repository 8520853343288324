import { parseStringList } from '../../db/json-list';
import type { RealmTx } from '../../db/types';
import { parseCatalog, parseSettings } from '../apps/catalog-json';
import { appSettingsSchema } from '../apps/settings-schema';
import { parseProviderConfig } from '../login-providers/provider-config';
import type { ExternalFlavor } from '../login-providers/schemas';
import type { ClientType } from '../oauth-clients/client-rules';
import { realmSettingsIn } from '../realm-settings/realm-settings';
import { groupKey, roleKey } from './builtins';
import { canonicalManifest } from './canonical';
import { MANIFEST_VERSION, type Manifest, type ManifestClient, type ManifestProvider } from './schema';

// A realm's structure read in one go (inside apply's transaction, or on its own for export): the
// canonical manifest of what a manifest covers, and the ids behind each natural key, built-ins
// included, so apply can resolve references. Left out, by design (docs/manifests.md): built-ins,
// users and memberships, secrets, service-account credentials and their clients, position
// terminals, and dynamically registered clients.

export type RealmIds = {
  apps: Map<string, string>;
  roles: Map<string, string>;
  groups: Map<string, string>;
  scopes: Map<string, string>;
  apis: Map<string, string>;
  /** Clients a manifest manages, by client id. */
  clients: Map<string, { id: string; isActive: boolean; scopes: string[] }>;
  /** Every client id of the realm (a manifest's client may not take one a credential or terminal has). */
  allClientIds: Set<string>;
  providers: Map<string, { id: string; config: ReturnType<typeof parseProviderConfig> }>;
  serviceAccounts: Map<string, string>;
};

export type RealmState = { manifest: Manifest; ids: RealmIds };

export async function readRealmState(tx: RealmTx, realm: { displayName: string; description: string | null }): Promise<RealmState> {
  // One after another: a transaction has one connection.
  const apps = await tx.app.findMany({
    select: { id: true, slug: true, displayName: true, description: true, isBuiltIn: true, permissionCatalog: true, settings: true },
  });
  const roles = await tx.permissionRole.findMany({ select: { id: true, name: true, description: true, appId: true, permissions: true, isBuiltIn: true } });
  const groups = await tx.group.findMany({
    select: {
      id: true,
      name: true,
      description: true,
      boundTo: true,
      isBuiltIn: true,
      roles: { select: { roleId: true } },
      parents: { select: { parentId: true } },
    },
  });
  const scopes = await tx.oAuthScope.findMany({ select: { id: true, name: true, displayName: true, description: true, resources: true, isBuiltIn: true } });
  const apis = await tx.oAuthApi.findMany({
    select: { id: true, name: true, audience: true, displayName: true, description: true, appId: true, isBuiltIn: true },
  });
  const clients = await tx.oAuthClient.findMany({
    select: {
      id: true,
      clientId: true,
      displayName: true,
      description: true,
      clientType: true,
      consentType: true,
      accessTokenType: true,
      redirectUris: true,
      postLogoutRedirectUris: true,
      grantTypes: true,
      scopes: true,
      capabilities: true,
      appId: true,
      serviceAccountId: true,
      positionId: true,
      isDynamic: true,
      isActive: true,
    },
  });
  const providers = await tx.loginProvider.findMany({
    where: { isBuiltIn: false },
    select: { id: true, name: true, flavor: true, slug: true, isActive: true, config: true },
  });
  const accounts = await tx.serviceAccount.findMany({
    select: { id: true, name: true, description: true, isActive: true, groups: { select: { groupId: true } } },
  });
  const settings = await realmSettingsIn(tx);

  const appSlug = new Map(apps.map((a) => [a.id, a.slug]));
  const roleById = new Map(roles.flatMap((r) => (appSlug.has(r.appId) ? [[r.id, { App: appSlug.get(r.appId)!, Name: r.name }] as const] : [])));
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  const groupNames = (ids: readonly string[]) => ids.flatMap((id) => (groupName.has(id) ? [groupName.get(id)!] : []));
  const managedClients = clients.filter((c) => !c.serviceAccountId && !c.positionId && !c.isDynamic);

  const raw: Manifest = {
    Version: MANIFEST_VERSION,
    Realm: { DisplayName: realm.displayName, Description: realm.description },
    Settings: settings,
    Apps: apps
      .filter((a) => !a.isBuiltIn)
      .map((a) => {
        const parsed = appSettingsSchema.safeParse(parseSettings(a.settings) ?? undefined);
        return {
          Slug: a.slug,
          DisplayName: a.displayName,
          Description: a.description,
          PermissionCatalog: parseCatalog(a.permissionCatalog),
          Settings: parsed.success ? parsed.data : null,
        };
      }),
    Roles: roles
      .filter((r) => !r.isBuiltIn && appSlug.has(r.appId))
      .map((r) => ({ App: appSlug.get(r.appId)!, Name: r.name, Description: r.description, Permissions: parseStringList(r.permissions) })),
    Groups: groups
      .filter((g) => !g.isBuiltIn)
      .map((g) => ({
        Name: g.name,
        Description: g.description,
        BoundTo: parseStringList(g.boundTo),
        Roles: g.roles.flatMap((link) => (roleById.has(link.roleId) ? [roleById.get(link.roleId)!] : [])),
        ParentGroups: groupNames(g.parents.map((p) => p.parentId)),
      })),
    OAuthScopes: scopes
      .filter((s) => !s.isBuiltIn)
      .map((s) => ({ Name: s.name, DisplayName: s.displayName, Description: s.description, Resources: parseStringList(s.resources) })),
    OAuthApis: apis
      .filter((a) => !a.isBuiltIn)
      .map((a) => ({
        Name: a.name,
        Audience: a.audience,
        DisplayName: a.displayName,
        Description: a.description,
        App: a.appId ? (appSlug.get(a.appId) ?? null) : null,
      })),
    OAuthClients: managedClients.map((c): ManifestClient => ({
      ClientId: c.clientId,
      DisplayName: c.displayName,
      Description: c.description,
      ClientType: c.clientType as ClientType,
      ConsentType: c.consentType as ManifestClient['ConsentType'],
      AccessTokenType: c.accessTokenType as ManifestClient['AccessTokenType'],
      RedirectUris: parseStringList(c.redirectUris),
      PostLogoutRedirectUris: parseStringList(c.postLogoutRedirectUris),
      GrantTypes: parseStringList(c.grantTypes),
      Scopes: parseStringList(c.scopes),
      App: c.appId ? (appSlug.get(c.appId) ?? null) : null,
      Capabilities: parseStringList(c.capabilities),
      IsActive: c.isActive,
    })),
    LoginProviders: providers.map((p): ManifestProvider => {
      const config = parseProviderConfig(p.config);
      const saml = config.Saml ? { ...config.Saml, SpCertificate: undefined } : null;
      return {
        Name: p.name,
        Flavor: p.flavor as ExternalFlavor,
        Slug: p.slug,
        IsActive: p.isActive,
        Jit: { Enabled: config.Jit.Enabled, DefaultGroups: groupNames(config.Jit.DefaultGroupIds) },
        UserUpdateScript: config.UserUpdateScript,
        Oidc: config.Oidc,
        Saml: saml,
        Ldap: config.Ldap,
        Kerberos: config.Kerberos,
      };
    }),
    ServiceAccounts: accounts.map((s) => ({
      Name: s.name,
      Description: s.description,
      IsActive: s.isActive,
      Groups: groupNames(s.groups.map((g) => g.groupId)),
    })),
  };

  const ids: RealmIds = {
    apps: new Map(apps.map((a) => [a.slug, a.id])),
    roles: new Map(roles.flatMap((r) => (roleById.has(r.id) ? [[roleKey(roleById.get(r.id)!.App, r.name), r.id] as const] : []))),
    groups: new Map(groups.map((g) => [groupKey(g.name), g.id])),
    scopes: new Map(scopes.map((s) => [s.name, s.id])),
    apis: new Map(apis.map((a) => [a.audience, a.id])),
    clients: new Map(managedClients.map((c) => [c.clientId, { id: c.id, isActive: c.isActive, scopes: parseStringList(c.scopes) }])),
    allClientIds: new Set(clients.map((c) => c.clientId)),
    providers: new Map(providers.map((p) => [p.name, { id: p.id, config: parseProviderConfig(p.config) }])),
    serviceAccounts: new Map(accounts.map((s) => [s.name.toLowerCase(), s.id])),
  };
  return { manifest: canonicalManifest(raw), ids };
}
