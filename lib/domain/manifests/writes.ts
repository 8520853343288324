import { newId } from '../../crypto/tokens';
import { toJsonList } from '../../db/json-list';
import type { RealmTx } from '../../db/types';
import type { DomainContext } from '../../realm/context';
import { appBlockers, appInUse } from '../apps/app-blockers';
import { catalogOf } from '../apps/app-write-rules';
import { parseCatalog } from '../apps/catalog-json';
import { sparseAppSettings } from '../apps/settings-schema';
import { ALL_APPS } from '../groups/bound-to';
import { findCycle } from '../groups/graph';
import { loadParentMap } from '../groups/graph-repo';
import { checkDefaultGroups, checkSamlSettings, checkUpstreamAddresses, checkUpstreamAuthority, configFromBody } from '../login-providers/provider-settings';
import { optionalText } from '../merge-patch';
import { scopesNamingAudience } from '../oauth-apis/repo';
import { insertClient, prepareClient } from '../oauth-clients/create-client';
import { assertMayHandleGatehouseScopes } from '../oauth-clients/gatehouse-scope-guard';
import { revokeClientTokens } from '../oauth-clients/revoke-client-tokens';
import { assertClientValid } from '../oauth-clients/validate-client';
import { assertScopeUnused } from '../oauth-scopes/repo';
import { writeRealmSettingsTx } from '../realm-settings/realm-settings';
import { permissionsOutsideCatalog } from '../roles/catalog-check';
import { clientsOfServiceAccount } from '../service-accounts/credential-repo';
import { groupKey, roleKey } from './builtins';
import { atItem, itemError } from './item-errors';
import type { ManifestPlan } from './plan';
import type { Manifest, ManifestClient, ManifestGroup, ManifestProvider, ManifestServiceAccount } from './schema';
import type { RealmIds } from './state';

// The writes of one plan, inside apply's transaction (apply.ts holds the lock, the guard and the
// administrator check around them). Deletions first (so a name a pruned item frees can be taken),
// then every kind in dependency order: settings, Apps, roles, groups (fields, then links), APIs,
// scopes, clients, login providers, service accounts. Each write is what the concept's own create or
// replace stores, with the same checks where they need the database; errors point at the item.

export type Pointers = { [L in keyof PointerLists]-?: (key: string) => string };
type PointerLists = Pick<Manifest, 'Apps' | 'Roles' | 'Groups' | 'OAuthScopes' | 'OAuthApis' | 'OAuthClients' | 'LoginProviders' | 'ServiceAccounts'>;

export type Writer = {
  ctx: DomainContext;
  tx: RealmTx;
  ids: RealmIds;
  /** Ids chosen before the transaction (the Apps' routes and the guard's principals need them). */
  newAppIds: Map<string, string>;
  newServiceAccountIds: Map<string, string>;
  at: Pointers;
};

export type ClientSecret = { ClientId: string; ClientSecret: string };

export async function writePlan(w: Writer, plan: ManifestPlan, desired: Manifest): Promise<ClientSecret[]> {
  await deleteItems(w, plan);
  if (plan.settings === 'update' && desired.Settings) await writeRealmSettingsTx(w.tx, desired.Settings);
  await writeApps(w, plan);
  await writeRoles(w, plan);
  await writeGroups(w, plan);
  await writeApis(w, plan);
  await writeScopes(w, plan);
  const secrets = await writeClients(w, plan);
  await deleteLate(w, plan);
  await writeProviders(w, plan);
  await writeServiceAccounts(w, plan);
  return secrets;
}

const now = () => new Date();

async function deleteItems(w: Writer, plan: ManifestPlan): Promise<void> {
  const { tx, ids } = w;
  const l = plan.lists;
  for (const p of l.LoginProviders.delete) await tx.loginProvider.delete({ where: { id: ids.providers.get(p.Name)!.id } });
  if (l.OAuthClients.delete.length) {
    const clientIds = l.OAuthClients.delete.map((c) => c.ClientId);
    await revokeClientTokens(tx, clientIds);
    await tx.oAuthClient.deleteMany({ where: { clientId: { in: clientIds } } });
  }
  for (const s of l.ServiceAccounts.delete) {
    const id = ids.serviceAccounts.get(s.Name.toLowerCase())!;
    const clients = await clientsOfServiceAccount(tx, id);
    await revokeClientTokens(
      tx,
      clients.map((c) => c.clientId),
    );
    await tx.oAuthClient.deleteMany({ where: { id: { in: clients.map((c) => c.id) } } });
    await tx.serviceAccountCredential.deleteMany({ where: { serviceAccountId: id } });
    await tx.serviceAccountGroup.deleteMany({ where: { serviceAccountId: id } });
    await tx.serviceAccount.delete({ where: { id } });
  }
  for (const g of l.Groups.delete) {
    const id = ids.groups.get(groupKey(g.Name))!;
    await tx.groupMember.deleteMany({ where: { groupId: id } });
    // Service-account memberships have no foreign key to Group, so they do not cascade.
    await tx.serviceAccountGroup.deleteMany({ where: { groupId: id } });
    await tx.groupRole.deleteMany({ where: { groupId: id } });
    await tx.groupParent.deleteMany({ where: { OR: [{ childId: id }, { parentId: id }] } });
    await tx.group.delete({ where: { id } });
    ids.groups.delete(groupKey(g.Name));
  }
  for (const r of l.Roles.delete) {
    const id = ids.roles.get(roleKey(r.App, r.Name))!;
    await tx.groupRole.deleteMany({ where: { roleId: id } });
    await tx.permissionRole.delete({ where: { id } });
  }
}

/** After the clients are written: a scope, API or App may be pruned only once nothing still uses it. */
async function deleteLate(w: Writer, plan: ManifestPlan): Promise<void> {
  const { tx, ids } = w;
  const l = plan.lists;
  for (const s of l.OAuthScopes.delete) {
    // A client the manifest does not manage (a credential's, a registered one) may still list it.
    await atItem(`/OAuthScopes`, () => assertScopeUnused(tx, s.Name, 'prune'));
    await tx.oAuthScope.delete({ where: { id: ids.scopes.get(s.Name)! } });
    ids.scopes.delete(s.Name);
  }
  for (const a of l.OAuthApis.delete) {
    const scopes = await scopesNamingAudience(tx, a.Audience);
    if (scopes.length) throw itemError('/OAuthApis', `${a.Audience} is still a resource of ${scopes.map((s) => s.Name).join(', ')}.`);
    await tx.oAuthApi.delete({ where: { id: ids.apis.get(a.Audience)! } });
  }
  for (const a of l.Apps.delete) {
    const id = ids.apps.get(a.Slug)!;
    // What the manifest does not manage (invite codes, a credential's client) keeps an App alive.
    const blockers = await appBlockers(tx, id);
    if (blockers.length) throw appInUse(blockers);
    await tx.app.delete({ where: { id } });
    ids.apps.delete(a.Slug);
  }
}

function appId(w: Writer, slug: string, pointer: string): string {
  const id = w.ids.apps.get(slug);
  if (!id) throw itemError(pointer, `This realm has no application ${slug}.`);
  return id;
}

async function writeApps(w: Writer, plan: ManifestPlan): Promise<void> {
  const { tx } = w;
  // Creates in one statement each kind: a large manifest into an empty realm is mostly creates.
  const apps = plan.lists.Apps.create.map((a) => {
    const id = w.newAppIds.get(a.Slug) ?? newId();
    const settings = sparseAppSettings(a.Settings);
    w.ids.apps.set(a.Slug, id);
    return {
      id,
      slug: a.Slug,
      displayName: a.DisplayName,
      description: optionalText(a.Description),
      permissionCatalog: JSON.stringify(catalogOf(a)),
      settings: settings ? JSON.stringify(settings) : null,
    };
  });
  if (apps.length) await tx.app.createMany({ data: apps });
  for (const { item: a } of plan.lists.Apps.update) {
    const id = w.ids.apps.get(a.Slug)!;
    const settings = sparseAppSettings(a.Settings);
    await tx.app.update({
      where: { id },
      data: {
        displayName: a.DisplayName,
        description: optionalText(a.Description),
        permissionCatalog: JSON.stringify(catalogOf(a)),
        settings: settings ? JSON.stringify(settings) : null,
        updatedAt: now(),
      },
    });
  }
}

async function writeRoles(w: Writer, plan: ManifestPlan): Promise<void> {
  const { tx } = w;
  const roles = plan.lists.Roles.create.map((r) => {
    const id = newId();
    w.ids.roles.set(roleKey(r.App, r.Name), id);
    return {
      id,
      name: r.Name,
      nameNormalized: r.Name.toLowerCase(),
      description: optionalText(r.Description),
      appId: appId(w, r.App, `${w.at.Roles(roleKey(r.App, r.Name))}/App`),
      permissions: toJsonList(r.Permissions),
    };
  });
  if (roles.length) await tx.permissionRole.createMany({ data: roles });
  for (const { item: r } of plan.lists.Roles.update) {
    await tx.permissionRole.update({
      where: { id: w.ids.roles.get(roleKey(r.App, r.Name))! },
      data: { name: r.Name, description: optionalText(r.Description), permissions: toJsonList(r.Permissions), updatedAt: now() },
    });
  }
  // An App's catalog may have shrunk under roles the manifest leaves alone (merge): none may keep
  // a permission its App no longer lists.
  const changedApps = [...plan.lists.Apps.update.map((u) => u.item.Slug)];
  if (!changedApps.length) return;
  const apps = await tx.app.findMany({ where: { slug: { in: changedApps } }, select: { id: true, slug: true, permissionCatalog: true, roles: true } });
  for (const app of apps) {
    const catalog = parseCatalog(app.permissionCatalog);
    for (const role of app.roles) {
      const outside = permissionsOutsideCatalog(JSON.parse(role.permissions) as string[], catalog);
      if (outside.length) throw itemError(`${w.at.Apps(app.slug)}/PermissionCatalog`, `The role ${role.name} still grants ${outside.join(', ')}.`);
    }
  }
}

async function writeGroups(w: Writer, plan: ManifestPlan): Promise<void> {
  const { tx } = w;
  const groupFields = (g: ManifestGroup) => {
    const boundTo = g.BoundTo ?? [ALL_APPS];
    boundTo.forEach((slug, j) => {
      if (slug !== ALL_APPS) appId(w, slug, `${w.at.Groups(groupKey(g.Name))}/BoundTo/${j}`);
    });
    return { name: g.Name, nameNormalized: g.Name.toLowerCase(), description: optionalText(g.Description), boundTo: toJsonList(boundTo) };
  };
  const created = plan.lists.Groups.create.map((g) => {
    const id = newId();
    w.ids.groups.set(groupKey(g.Name), id);
    return { id, ...groupFields(g) };
  });
  if (created.length) await tx.group.createMany({ data: created });
  for (const { item: g } of plan.lists.Groups.update) {
    await tx.group.update({ where: { id: w.ids.groups.get(groupKey(g.Name))! }, data: { ...groupFields(g), updatedAt: now() } });
  }
  // Links once every group exists: a group may be nested in one created after it.
  const linked = [...plan.lists.Groups.create, ...plan.lists.Groups.update.map((u) => u.item)];
  if (!linked.length) return;
  const roleLinks: { groupId: string; roleId: string }[] = [];
  const parentLinks: { childId: string; parentId: string }[] = [];
  for (const g of linked) {
    const id = w.ids.groups.get(groupKey(g.Name))!;
    (g.Roles ?? []).forEach((r, j) => {
      const roleId = w.ids.roles.get(roleKey(r.App, r.Name));
      if (!roleId) throw itemError(`${w.at.Groups(groupKey(g.Name))}/Roles/${j}`, `This realm has no role ${r.Name} of ${r.App}.`);
      roleLinks.push({ groupId: id, roleId });
    });
    for (const name of g.ParentGroups ?? []) parentLinks.push({ childId: id, parentId: w.ids.groups.get(groupKey(name))! });
  }
  const updated = plan.lists.Groups.update.map((u) => w.ids.groups.get(groupKey(u.item.Name))!);
  if (updated.length) {
    await tx.groupRole.deleteMany({ where: { groupId: { in: updated } } });
    await tx.groupParent.deleteMany({ where: { childId: { in: updated } } });
  }
  if (roleLinks.length) await tx.groupRole.createMany({ data: roleLinks });
  if (parentLinks.length) await tx.groupParent.createMany({ data: parentLinks });
  // The built-in Administrators group may be nested in a group of the manifest: check the whole graph.
  const parents = await loadParentMap(tx);
  for (const g of linked) {
    const id = w.ids.groups.get(groupKey(g.Name))!;
    if (findCycle(parents, id, parents.get(id) ?? []))
      throw itemError(`${w.at.Groups(groupKey(g.Name))}/ParentGroups`, 'The group nesting would create a cycle.');
  }
}

async function writeApis(w: Writer, plan: ManifestPlan): Promise<void> {
  const { tx } = w;
  const fields = (a: NonNullable<Manifest['OAuthApis']>[number]) => ({
    name: a.Name,
    nameNormalized: a.Name.toLowerCase(),
    displayName: optionalText(a.DisplayName),
    description: optionalText(a.Description),
    appId: a.App ? appId(w, a.App, `${w.at.OAuthApis(a.Audience)}/App`) : null,
  });
  for (const a of plan.lists.OAuthApis.create) {
    const id = newId();
    await tx.oAuthApi.create({ data: { id, audience: a.Audience, ...fields(a) } });
    w.ids.apis.set(a.Audience, id);
  }
  for (const { item: a } of plan.lists.OAuthApis.update)
    await tx.oAuthApi.update({ where: { id: w.ids.apis.get(a.Audience)! }, data: { ...fields(a), updatedAt: now() } });
}

async function writeScopes(w: Writer, plan: ManifestPlan): Promise<void> {
  const { tx } = w;
  const fields = (s: NonNullable<Manifest['OAuthScopes']>[number]) => ({
    displayName: optionalText(s.DisplayName),
    description: optionalText(s.Description),
    resources: toJsonList(s.Resources ?? []),
  });
  for (const s of plan.lists.OAuthScopes.create) {
    const id = newId();
    await tx.oAuthScope.create({ data: { id, name: s.Name, ...fields(s) } });
    w.ids.scopes.set(s.Name, id);
  }
  for (const { item: s } of plan.lists.OAuthScopes.update)
    await tx.oAuthScope.update({ where: { id: w.ids.scopes.get(s.Name)! }, data: { ...fields(s), updatedAt: now() } });
}

async function writeClients(w: Writer, plan: ManifestPlan): Promise<ClientSecret[]> {
  const { ctx, tx } = w;
  const secrets: ClientSecret[] = [];
  const input = (c: ManifestClient) => {
    const { App, ...rest } = c;
    return { ...rest, AppId: App ? appId(w, App, `${w.at.OAuthClients(c.ClientId)}/App`) : null };
  };
  for (const c of plan.lists.OAuthClients.create) {
    const pointer = w.at.OAuthClients(c.ClientId);
    if (w.ids.allClientIds.has(c.ClientId)) throw itemError(`${pointer}/ClientId`, `${c.ClientId} is already used by a client that manifests do not manage.`);
    const body = input(c);
    const prepared = prepareClient(body);
    await atItem(pointer, () => insertClient(ctx, tx, body, prepared));
    if (prepared.secret) secrets.push({ ClientId: c.ClientId, ClientSecret: prepared.secret.secret });
  }
  for (const { item: c, current } of plan.lists.OAuthClients.update) {
    const pointer = w.at.OAuthClients(c.ClientId);
    if (c.ClientType !== current.ClientType)
      throw itemError(`${pointer}/ClientType`, 'The client type cannot change; remove the client and add it under another client id.');
    const stored = w.ids.clients.get(c.ClientId)!;
    const body = input(c);
    const state = {
      clientType: c.ClientType,
      grantTypes: c.GrantTypes,
      redirectUris: c.RedirectUris ?? [],
      postLogoutRedirectUris: c.PostLogoutRedirectUris ?? [],
      capabilities: c.Capabilities ?? [],
      scopes: c.Scopes ?? [],
      appId: body.AppId,
      positionId: null,
    };
    await atItem(pointer, async () => {
      await assertClientValid(tx, state);
      await assertMayHandleGatehouseScopes(ctx, tx, [...stored.scopes, ...state.scopes]);
    });
    await tx.oAuthClient.update({
      where: { id: stored.id },
      data: {
        displayName: c.DisplayName,
        description: optionalText(c.Description),
        consentType: c.ConsentType ?? 'Explicit',
        accessTokenType: c.AccessTokenType ?? 'Jwt',
        redirectUris: toJsonList(state.redirectUris),
        postLogoutRedirectUris: toJsonList(state.postLogoutRedirectUris),
        grantTypes: toJsonList(state.grantTypes),
        scopes: toJsonList(state.scopes),
        capabilities: toJsonList(state.capabilities),
        appId: state.appId,
        isActive: c.IsActive ?? true,
        updatedAt: now(),
      },
    });
    // Switched off: what it was issued stops working now (as the client update does).
    if (c.IsActive === false && stored.isActive) await revokeClientTokens(tx, [c.ClientId]);
  }
  return secrets;
}

async function writeProviders(w: Writer, plan: ManifestPlan): Promise<void> {
  const { ctx, tx } = w;
  const configOf = (p: ManifestProvider, keep: Parameters<typeof configFromBody>[2]) =>
    configFromBody(
      p.Flavor,
      {
        Jit: { Enabled: p.Jit?.Enabled ?? true, DefaultGroupIds: (p.Jit?.DefaultGroups ?? []).map((name) => w.ids.groups.get(groupKey(name))!) },
        UserUpdateScript: p.UserUpdateScript,
        Oidc: p.Oidc,
        Saml: p.Saml,
        Ldap: p.Ldap,
        Kerberos: p.Kerberos,
      },
      keep,
    );
  for (const p of plan.lists.LoginProviders.create) {
    const config = configOf(p, undefined);
    await atItem(w.at.LoginProviders(p.Name), async () => {
      checkSamlSettings(config);
      checkUpstreamAddresses(config);
      await checkDefaultGroups(ctx, tx, config);
      await checkUpstreamAuthority(ctx, tx, config, undefined);
    });
    await tx.loginProvider.create({
      data: {
        id: newId(),
        name: p.Name,
        flavor: p.Flavor,
        slug: p.Flavor === 'Saml' ? (p.Slug ?? null) : null,
        isActive: p.IsActive ?? true,
        config: JSON.stringify(config),
      },
    });
  }
  for (const { item: p, current } of plan.lists.LoginProviders.update) {
    const pointer = w.at.LoginProviders(p.Name);
    if (p.Flavor !== current.Flavor) throw itemError(`${pointer}/Flavor`, 'A provider keeps its flavor; remove it and add another.');
    const stored = w.ids.providers.get(p.Name)!;
    const config = configOf(p, stored.config);
    await atItem(pointer, async () => {
      checkSamlSettings(config);
      checkUpstreamAddresses(config);
      await checkDefaultGroups(ctx, tx, config);
      await checkUpstreamAuthority(ctx, tx, config, stored.config);
    });
    await tx.loginProvider.update({
      where: { id: stored.id },
      data: {
        slug: p.Flavor === 'Saml' ? (p.Slug ?? null) : null,
        isActive: p.IsActive ?? true,
        config: JSON.stringify(config),
        version: { increment: 1 },
        updatedAt: now(),
      },
    });
  }
}

async function writeServiceAccounts(w: Writer, plan: ManifestPlan): Promise<void> {
  const { tx } = w;
  const groupIds = (s: ManifestServiceAccount) => (s.Groups ?? []).map((name) => w.ids.groups.get(groupKey(name))!);
  for (const s of plan.lists.ServiceAccounts.create) {
    const id = w.newServiceAccountIds.get(s.Name.toLowerCase()) ?? newId();
    await tx.serviceAccount.create({
      data: { id, name: s.Name, nameNormalized: s.Name.toLowerCase(), description: optionalText(s.Description), isActive: s.IsActive ?? true },
    });
    const groups = groupIds(s);
    if (groups.length) await tx.serviceAccountGroup.createMany({ data: groups.map((groupId) => ({ serviceAccountId: id, groupId })) });
  }
  for (const { item: s, current } of plan.lists.ServiceAccounts.update) {
    const id = w.ids.serviceAccounts.get(s.Name.toLowerCase())!;
    const isActive = s.IsActive ?? true;
    await tx.serviceAccount.update({
      where: { id },
      data: { name: s.Name, nameNormalized: s.Name.toLowerCase(), description: optionalText(s.Description), isActive, updatedAt: now() },
    });
    await tx.serviceAccountGroup.deleteMany({ where: { serviceAccountId: id } });
    const groups = groupIds(s);
    if (groups.length) await tx.serviceAccountGroup.createMany({ data: groups.map((groupId) => ({ serviceAccountId: id, groupId })) });
    // Its credentials' clients follow the account's switch, as the service-account update does.
    if (isActive !== (current.IsActive ?? true)) {
      const clients = await clientsOfServiceAccount(tx, id);
      await tx.oAuthClient.updateMany({ where: { id: { in: clients.map((c) => c.id) } }, data: { isActive, updatedAt: now() } });
      if (!isActive)
        await revokeClientTokens(
          tx,
          clients.map((c) => c.clientId),
        );
    }
  }
}
