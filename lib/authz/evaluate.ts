import { REALM_ADMIN, resourceOf } from './catalog';

// The pure permission walk of spec 5.7, free of storage so it can be tested exhaustively.

export type GroupNode = {
  id: string;
  /** App slugs or "*"; [] means dormant. */
  boundTo: string[];
  parentIds: string[];
  roles: { name: string; appSlug: string; permissions: string[] }[];
};

/**
 * `effective` is the walk of spec 5.7; `potential` ignores BoundTo, so it is what the principal would
 * hold were every dormant or otherwise-bound group woken (the no-escalation rule checks both).
 */
export type GrantView = 'effective' | 'potential';

/**
 * Grants of a principal for one app context: walks direct memberships and, transitively, parent
 * groups (with a visited set, so cycles end), keeps only groups bound to the app or "*", and from
 * them the roles of that app plus any realm-admin role whatever its app.
 */
export function collectGrants(
  directGroupIds: readonly string[],
  groups: ReadonlyMap<string, GroupNode>,
  appSlug: string,
  view: GrantView = 'effective',
): Set<string> {
  const grants = new Set<string>();
  for (const role of reachableRoles(directGroupIds, groups, appSlug, view)) {
    if (role.appSlug === appSlug) role.permissions.forEach((p) => grants.add(p));
    else if (role.permissions.includes(REALM_ADMIN)) grants.add(REALM_ADMIN);
  }
  return grants;
}

/** Names of the roles of one app a principal holds through the same walk (the OIDC `roles` claim). */
export function collectRoleNames(directGroupIds: string[], groups: Map<string, GroupNode>, appSlug: string): string[] {
  const names = new Set<string>();
  for (const role of reachableRoles(directGroupIds, groups, appSlug)) if (role.appSlug === appSlug) names.add(role.name);
  return [...names].sort();
}

function reachableRoles(
  directGroupIds: readonly string[],
  groups: ReadonlyMap<string, GroupNode>,
  appSlug: string,
  view: GrantView = 'effective',
): GroupNode['roles'] {
  const roles: GroupNode['roles'] = [];
  const visited = new Set<string>();
  const queue = [...directGroupIds];
  while (queue.length) {
    const id = queue.pop()!;
    if (visited.has(id)) continue;
    visited.add(id);
    const group = groups.get(id);
    if (!group) continue;
    queue.push(...group.parentIds);
    if (view === 'effective' && !group.boundTo.includes('*') && !group.boundTo.includes(appSlug)) continue;
    roles.push(...group.roles);
  }
  return roles;
}

/** The check of spec 5.7.5: realm:admin, the exact permission, or `<resource>:admin`. */
export function hasPermission(grants: ReadonlySet<string>, permission: string): boolean {
  return grants.has(REALM_ADMIN) || grants.has(permission) || grants.has(`${resourceOf(permission)}:admin`);
}

/** Pre-expands realm:admin and `<resource>:admin` against a catalog (spec 5.7.4), for display. */
export function expandGrants(grants: ReadonlySet<string>, catalog: readonly string[]): string[] {
  const out = new Set<string>();
  for (const name of catalog) if (hasPermission(grants, name)) out.add(name);
  for (const g of grants) out.add(g);
  return [...out].sort();
}
