import { normalizeBoundTo, ALL_APPS } from '../groups/bound-to';
import { optionalText } from '../merge-patch';
import { defaultClientScopes } from '../oauth-clients/client-rules';
import { normalizePermissions } from '../roles/catalog-check';
import { sparseAppSettings } from '../apps/settings-schema';
import { BUILT_IN_GROUP, BUILT_IN_ROLE, groupKey, roleKey } from './builtins';
import type {
  Manifest,
  ManifestApi,
  ManifestApp,
  ManifestClient,
  ManifestGroup,
  ManifestProvider,
  ManifestRole,
  ManifestScope,
  ManifestServiceAccount,
} from './schema';

// The one spelling of every item (defaults filled in, blank text and nulls dropped, set-like lists
// deduplicated and sorted, references spelt as the item they name): what export writes, what apply
// stores, and what plan compares. Two manifests that mean the same realm have the same canonical form,
// which is what makes apply idempotent and export -> apply -> export a round trip.

const text = (value: string | null | undefined): string | undefined => optionalText(value) ?? undefined;
const uniq = (list: readonly string[] | null | undefined): string[] => [...new Set((list ?? []).map((s) => s.trim()))];
const sorted = (list: readonly string[]): string[] => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const byKey = <T>(items: readonly T[] | undefined, key: (item: T) => string): T[] =>
  [...(items ?? [])].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** Drops undefined and null members, recursively, so a canonical item has no empty fields. */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(compact) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, compact(v)]),
    ) as T;
  }
  return value;
}

/** Keys in sorted order at every level: the text plan compares. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export function canonicalApp(a: ManifestApp): ManifestApp {
  return compact({
    Slug: a.Slug,
    DisplayName: a.DisplayName.trim(),
    Description: text(a.Description),
    PermissionCatalog: a.PermissionCatalog.map((e) => compact({ Name: e.Name.trim(), Description: text(e.Description) })),
    Settings: sparseAppSettings(a.Settings) ?? undefined,
  });
}

export function canonicalRole(r: ManifestRole): ManifestRole {
  return compact({ App: r.App, Name: r.Name.trim(), Description: text(r.Description), Permissions: normalizePermissions(r.Permissions) });
}

type Spelling = { group: (name: string) => string; role: (app: string, name: string) => string };

export function canonicalGroup(g: ManifestGroup, spell: Spelling): ManifestGroup {
  const roles = new Map((g.Roles ?? []).map((r) => [roleKey(r.App, r.Name), { App: r.App, Name: spell.role(r.App, r.Name) }]));
  return compact({
    Name: g.Name.trim(),
    Description: text(g.Description),
    BoundTo: normalizeBoundTo(g.BoundTo ?? [ALL_APPS]),
    Roles: byKey([...roles.values()], (r) => roleKey(r.App, r.Name)),
    ParentGroups: byKey(uniq((g.ParentGroups ?? []).map(spell.group)), groupKey),
  });
}

export function canonicalScope(s: ManifestScope): ManifestScope {
  return compact({ Name: s.Name, DisplayName: text(s.DisplayName), Description: text(s.Description), Resources: sorted(uniq(s.Resources)) });
}

export function canonicalApi(a: ManifestApi): ManifestApi {
  return compact({ Name: a.Name.trim(), Audience: a.Audience, DisplayName: text(a.DisplayName), Description: text(a.Description), App: a.App ?? undefined });
}

export function canonicalClient(c: ManifestClient): ManifestClient {
  const grantTypes = uniq(c.GrantTypes);
  return compact({
    ClientId: c.ClientId,
    DisplayName: c.DisplayName.trim(),
    Description: text(c.Description),
    ClientType: c.ClientType,
    ConsentType: c.ConsentType ?? 'Explicit',
    AccessTokenType: c.AccessTokenType ?? 'Jwt',
    RedirectUris: uniq(c.RedirectUris),
    PostLogoutRedirectUris: uniq(c.PostLogoutRedirectUris),
    GrantTypes: grantTypes,
    Scopes: c.Scopes == null ? defaultClientScopes(grantTypes) : uniq(c.Scopes),
    App: c.App ?? undefined,
    Capabilities: uniq(c.Capabilities),
    IsActive: c.IsActive ?? true,
  });
}

export function canonicalProvider(p: ManifestProvider, spell: Spelling): ManifestProvider {
  const script = p.UserUpdateScript?.trim() ? p.UserUpdateScript : undefined;
  return compact({
    Name: p.Name.trim(),
    Flavor: p.Flavor,
    Slug: p.Flavor === 'Saml' ? (p.Slug ?? undefined) : undefined,
    IsActive: p.IsActive ?? true,
    Jit: { Enabled: p.Jit?.Enabled ?? true, DefaultGroups: byKey(uniq((p.Jit?.DefaultGroups ?? []).map(spell.group)), groupKey) },
    UserUpdateScript: script,
    Oidc: p.Flavor === 'Oidc' ? (p.Oidc ?? undefined) : undefined,
    Saml: p.Flavor === 'Saml' ? (p.Saml ?? undefined) : undefined,
    Ldap: p.Flavor === 'Ldap' ? (p.Ldap ?? undefined) : undefined,
    Kerberos: p.Flavor === 'Kerberos' ? (p.Kerberos ?? undefined) : undefined,
  });
}

export function canonicalServiceAccount(s: ManifestServiceAccount, spell: Spelling): ManifestServiceAccount {
  return compact({
    Name: s.Name.trim(),
    Description: text(s.Description),
    IsActive: s.IsActive ?? true,
    Groups: byKey(uniq((s.Groups ?? []).map(spell.group)), groupKey),
  });
}

/** Natural keys of each kind, as matched against the realm (case-insensitive where the store is). */
export const KEYS = {
  app: (a: ManifestApp) => a.Slug,
  role: (r: ManifestRole) => roleKey(r.App, r.Name),
  group: (g: ManifestGroup) => groupKey(g.Name),
  scope: (s: ManifestScope) => s.Name,
  api: (a: ManifestApi) => a.Audience,
  client: (c: ManifestClient) => c.ClientId,
  provider: (p: ManifestProvider) => p.Name,
  serviceAccount: (s: ManifestServiceAccount) => s.Name.trim().toLowerCase(),
} as const;

/** The whole manifest in canonical form, every list sorted by natural key. */
export function canonicalManifest(m: Manifest): Manifest {
  const groupNames = new Map([[groupKey(BUILT_IN_GROUP), BUILT_IN_GROUP], ...(m.Groups ?? []).map((g) => [groupKey(g.Name), g.Name.trim()] as const)]);
  const roleNames = new Map([
    [roleKey(BUILT_IN_ROLE.App, BUILT_IN_ROLE.Name), BUILT_IN_ROLE.Name],
    ...(m.Roles ?? []).map((r) => [roleKey(r.App, r.Name), r.Name.trim()] as const),
  ]);
  const spell: Spelling = {
    group: (name) => groupNames.get(groupKey(name)) ?? name.trim(),
    role: (app, name) => roleNames.get(roleKey(app, name)) ?? name.trim(),
  };
  return compact({
    Version: m.Version,
    Realm: { DisplayName: m.Realm.DisplayName.trim(), Description: text(m.Realm.Description) },
    Settings: m.Settings,
    Apps: byKey((m.Apps ?? []).map(canonicalApp), KEYS.app),
    Roles: byKey((m.Roles ?? []).map(canonicalRole), KEYS.role),
    Groups: byKey(
      (m.Groups ?? []).map((g) => canonicalGroup(g, spell)),
      KEYS.group,
    ),
    OAuthScopes: byKey((m.OAuthScopes ?? []).map(canonicalScope), KEYS.scope),
    OAuthApis: byKey((m.OAuthApis ?? []).map(canonicalApi), KEYS.api),
    OAuthClients: byKey((m.OAuthClients ?? []).map(canonicalClient), KEYS.client),
    LoginProviders: byKey(
      (m.LoginProviders ?? []).map((p) => canonicalProvider(p, spell)),
      KEYS.provider,
    ),
    ServiceAccounts: byKey(
      (m.ServiceAccounts ?? []).map((s) => canonicalServiceAccount(s, spell)),
      KEYS.serviceAccount,
    ),
  });
}
