import type { z } from 'zod';
import { ALL_APPS } from '../groups/bound-to';
import { clientRuleErrors, type ClientType } from '../oauth-clients/client-rules';
import { BUILT_IN_APPS, BUILT_IN_AUDIENCE, BUILT_IN_GROUP, BUILT_IN_ROLE, BUILT_IN_SCOPES, groupKey, roleKey } from './builtins';

// The checks of a manifest that span items (schema.ts runs them after every item passed its own):
// every natural key is used once, no built-in is redefined, every reference names an item of the
// manifest or a built-in, roles draw only on their App's catalog, clients follow the client rules,
// and the nesting has no cycle. Each problem is reported at the path of the offending value, which
// parse.ts turns into a JSON pointer. Pure: structural types, so this module needs nothing of schema.ts.

type Shape = {
  Apps?: { Slug: string; PermissionCatalog: { Name: string }[] }[];
  Roles?: { App: string; Name: string; Permissions: string[] }[];
  Groups?: { Name: string; BoundTo?: string[] | null; Roles?: { App: string; Name: string }[] | null; ParentGroups?: string[] | null }[];
  OAuthScopes?: { Name: string; Resources?: string[] | null }[];
  OAuthApis?: { Name: string; Audience: string; App?: string | null }[];
  OAuthClients?: {
    ClientId: string;
    App?: string | null;
    Scopes?: string[] | null;
    ClientType: ClientType;
    GrantTypes: string[];
    RedirectUris?: string[] | null;
    PostLogoutRedirectUris?: string[] | null;
    Capabilities?: string[] | null;
  }[];
  LoginProviders?: { Name: string; Jit?: { DefaultGroups?: string[] | null } | null }[];
  ServiceAccounts?: { Name: string; Groups?: string[] | null }[];
};

type Path = (string | number)[];

export function checkReferences(m: Shape, ctx: z.RefinementCtx): void {
  const issue = (path: Path, message: string) => ctx.addIssue({ code: 'custom', path, message });

  const unique = <T>(kind: string, items: readonly T[] | undefined, field: string, key: (item: T) => string, builtIn?: (k: string) => boolean) => {
    const seen = new Set<string>();
    (items ?? []).forEach((item, i) => {
      const k = key(item);
      if (seen.has(k)) issue([kind, i, field], `${k} is listed twice.`);
      else if (builtIn?.(k)) issue([kind, i, field], `${k} is built in: a manifest may refer to it but does not define it.`);
      seen.add(k);
    });
    return seen;
  };

  const appCatalogs = new Map<string, readonly string[]>(BUILT_IN_APPS);
  unique(
    'Apps',
    m.Apps,
    'Slug',
    (a) => a.Slug,
    (k) => BUILT_IN_APPS.has(k),
  );
  for (const a of m.Apps ?? [])
    if (!appCatalogs.has(a.Slug))
      appCatalogs.set(
        a.Slug,
        a.PermissionCatalog.map((e) => e.Name),
      );
  const builtInRole = roleKey(BUILT_IN_ROLE.App, BUILT_IN_ROLE.Name);
  const roles = unique(
    'Roles',
    m.Roles,
    'Name',
    (r) => roleKey(r.App, r.Name),
    (k) => k === builtInRole,
  );
  roles.add(builtInRole);
  const groups = unique(
    'Groups',
    m.Groups,
    'Name',
    (g) => groupKey(g.Name),
    (k) => k === groupKey(BUILT_IN_GROUP),
  );
  groups.add(groupKey(BUILT_IN_GROUP));
  const scopes = unique(
    'OAuthScopes',
    m.OAuthScopes,
    'Name',
    (s) => s.Name,
    (k) => BUILT_IN_SCOPES.has(k),
  );
  const audiences = unique(
    'OAuthApis',
    m.OAuthApis,
    'Audience',
    (a) => a.Audience,
    (k) => k === BUILT_IN_AUDIENCE,
  );
  unique('OAuthApis', m.OAuthApis, 'Name', (a) => a.Name.toLowerCase());
  unique('OAuthClients', m.OAuthClients, 'ClientId', (c) => c.ClientId);
  unique('LoginProviders', m.LoginProviders, 'Name', (p) => p.Name);
  unique('ServiceAccounts', m.ServiceAccounts, 'Name', (s) => s.Name.toLowerCase());

  const appExists = (path: Path, slug: string | null | undefined) => {
    if (slug && !appCatalogs.has(slug)) issue(path, `No application ${slug} in this manifest.`);
  };
  const groupsExist = (path: Path, names: readonly string[] | null | undefined) =>
    (names ?? []).forEach((n, j) => {
      if (!groups.has(groupKey(n))) issue([...path, j], `No group ${n} in this manifest.`);
    });

  (m.Roles ?? []).forEach((r, i) => {
    const catalog = appCatalogs.get(r.App);
    if (!catalog) return issue(['Roles', i, 'App'], `No application ${r.App} in this manifest.`);
    const known = new Set(catalog);
    r.Permissions.forEach((p, j) => {
      if (!known.has(p.trim())) issue(['Roles', i, 'Permissions', j], `${p} is not in the catalog of ${r.App}.`);
    });
  });

  (m.Groups ?? []).forEach((g, i) => {
    (g.Roles ?? []).forEach((r, j) => {
      if (!roles.has(roleKey(r.App, r.Name))) issue(['Groups', i, 'Roles', j], `No role ${r.Name} of ${r.App} in this manifest.`);
    });
    groupsExist(['Groups', i, 'ParentGroups'], g.ParentGroups);
    (g.ParentGroups ?? []).forEach((p, j) => {
      if (groupKey(p) === groupKey(g.Name)) issue(['Groups', i, 'ParentGroups', j], 'A group cannot be nested in itself.');
    });
    (g.BoundTo ?? []).forEach((slug, j) => {
      if (slug.trim() !== ALL_APPS) appExists(['Groups', i, 'BoundTo', j], slug.trim().toLowerCase());
    });
  });
  const cycle = nestingCycle(m.Groups ?? []);
  if (cycle !== undefined) issue(['Groups', cycle, 'ParentGroups'], 'The nesting of the groups would create a cycle.');

  (m.OAuthScopes ?? []).forEach((s, i) =>
    (s.Resources ?? []).forEach((aud, j) => {
      if (!audiences.has(aud) && aud !== BUILT_IN_AUDIENCE)
        issue(['OAuthScopes', i, 'Resources', j], `No OAuth API with the audience ${aud} in this manifest.`);
    }),
  );
  (m.OAuthApis ?? []).forEach((a, i) => appExists(['OAuthApis', i, 'App'], a.App));

  (m.OAuthClients ?? []).forEach((c, i) => {
    appExists(['OAuthClients', i, 'App'], c.App);
    (c.Scopes ?? []).forEach((s, j) => {
      if (!scopes.has(s) && !BUILT_IN_SCOPES.has(s)) issue(['OAuthClients', i, 'Scopes', j], `No OAuth scope ${s} in this manifest.`);
    });
    const errors = clientRuleErrors({
      clientType: c.ClientType,
      grantTypes: c.GrantTypes,
      redirectUris: c.RedirectUris ?? [],
      postLogoutRedirectUris: c.PostLogoutRedirectUris ?? [],
      capabilities: c.Capabilities ?? [],
    });
    for (const [field, messages] of Object.entries(errors)) {
      for (const message of messages) issue(['OAuthClients', i, ...field.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s))], message);
    }
  });

  (m.LoginProviders ?? []).forEach((p, i) => groupsExist(['LoginProviders', i, 'Jit', 'DefaultGroups'], p.Jit?.DefaultGroups));
  (m.ServiceAccounts ?? []).forEach((s, i) => groupsExist(['ServiceAccounts', i, 'Groups'], s.Groups));
}

/** The index of a group whose parents close a cycle among the manifest's groups, if any. */
function nestingCycle(groups: readonly { Name: string; ParentGroups?: string[] | null }[]): number | undefined {
  const index = new Map(groups.map((g, i) => [groupKey(g.Name), i]));
  const state = new Map<string, 'open' | 'done'>();
  let found: number | undefined;
  const visit = (key: string): boolean => {
    if (state.get(key) === 'done') return false;
    if (state.get(key) === 'open') return true;
    state.set(key, 'open');
    const i = index.get(key);
    for (const parent of i === undefined ? [] : (groups[i].ParentGroups ?? [])) {
      if (index.has(groupKey(parent)) && visit(groupKey(parent))) {
        found ??= i;
        return true;
      }
    }
    state.set(key, 'done');
    return false;
  };
  for (const key of index.keys()) if (visit(key)) break;
  return found;
}
