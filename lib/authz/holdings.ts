import { CONTROL_PLANE_APP_SLUG, MAIN_APP_SLUG, REALM_ADMIN } from './catalog';
import { collectGrants, hasPermission, type GrantView, type GroupNode } from './evaluate';

// The no-escalation rule as a pure comparison of two states of a realm's permission graph: the one
// before a change and the one the change would commit. Storage-free so it can be tested
// exhaustively (holdings.test.ts); lib/domain/groups/grant-change-guard.ts loads the states inside
// the transaction that commits.
//
// A principal "holds" the permissions the walk of spec 5.7 gives it in a Gatehouse App context
// (`gatehouse`, and `control-plane` in the control-plane realm). Two views are compared: the
// effective one (BoundTo honoured, an inactive service account holds nothing) and the potential one
// (BoundTo ignored, inactive accounts counted), because a dormant group or an inactive account can
// be woken later; so joining a dormant administrators group is as guarded as waking it.

export const GUARDED_APPS = [MAIN_APP_SLUG, CONTROL_PLANE_APP_SLUG] as const;
const VIEWS: readonly GrantView[] = ['effective', 'potential'];

export type AuthzState = {
  /** The guarded App contexts this realm has (`control-plane` only in the control-plane realm). */
  apps: readonly string[];
  groups: ReadonlyMap<string, GroupNode>;
  /** Direct group ids per principal key (`user:<id>`, `service-account:<id>`). */
  memberships: ReadonlyMap<string, readonly string[]>;
  /** Principal keys that hold nothing in the effective view (inactive service accounts). */
  inactive: ReadonlySet<string>;
};

export type HoldingChange = { app: string; permission: string };

function grantsOf(state: AuthzState, principal: string, app: string, view: GrantView): Set<string> {
  if (view === 'effective' && state.inactive.has(principal)) return new Set();
  return collectGrants(state.memberships.get(principal) ?? [], state.groups, app, view);
}

/** A stable text form of what membership of one group confers, in every view and guarded App. */
function contribution(apps: readonly string[], groups: ReadonlyMap<string, GroupNode>, groupId: string): string {
  if (!groups.has(groupId)) return '';
  const parts: string[] = [];
  for (const view of VIEWS) for (const app of apps) parts.push(`${view}/${app}:${[...collectGrants([groupId], groups, app, view)].sort().join(',')}`);
  return parts.join('|');
}

/**
 * Groups whose membership confers something else after the change than before (a group created or
 * deleted counts when it confers anything). Only their members, and principals whose own
 * memberships changed, can hold something else.
 */
export function changedGroups(apps: readonly string[], before: ReadonlyMap<string, GroupNode>, after: ReadonlyMap<string, GroupNode>): string[] {
  const ids = new Set([...before.keys(), ...after.keys()]);
  return [...ids].filter((id) => contribution(apps, before, id) !== contribution(apps, after, id)).sort();
}

/** Every guarded permission whose holding differs between the two states for any of the principals. */
export function changedHoldings(before: AuthzState, after: AuthzState, principals: Iterable<string>): HoldingChange[] {
  const changes = new Map<string, HoldingChange>();
  const apps = [...new Set([...before.apps, ...after.apps])];
  for (const principal of principals) {
    for (const view of VIEWS) {
      for (const app of apps) {
        const was = grantsOf(before, principal, app, view);
        const is = grantsOf(after, principal, app, view);
        for (const p of [...was].filter((x) => !is.has(x)).concat([...is].filter((x) => !was.has(x)))) changes.set(`${app}\u0000${p}`, { app, permission: p });
      }
    }
  }
  return [...changes.values()];
}

/** What an actor holds in each guarded App (effective view): the authority it acts with. */
export function actorGrants(state: AuthzState, principal: string): Map<string, ReadonlySet<string>> {
  return new Map(state.apps.map((app) => [app, grantsOf(state, principal, app, 'effective')]));
}

/**
 * The changes the actor may not make, as sorted names (`permission`, or `app/permission` outside the
 * main App): nobody hands out or takes away what they do not hold themselves.
 */
export function unheldChanges(changes: readonly HoldingChange[], actor: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const missing = new Set<string>();
  for (const { app, permission } of changes) {
    if (hasPermission(actor.get(app) ?? new Set(), permission)) continue;
    missing.add(app === MAIN_APP_SLUG || permission === REALM_ADMIN ? permission : `${app}/${permission}`);
  }
  return [...missing].sort();
}
