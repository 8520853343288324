import { KEYS, stableJson } from './canonical';
import type { Manifest } from './schema';

// The diff of a realm's structure (as a canonical manifest, export.ts) against a desired canonical
// manifest: what apply would create, update and delete, as `"<kind>:<key>"` entries. Pure, so the
// same plan answers a dry run and drives the writes. Merge (the default) creates and updates what the
// manifest names and leaves the rest; prune also deletes what it does not name. Built-ins are never
// in either side (export leaves them out, the schema refuses them), so prune cannot reach them.

type ListKind = 'Apps' | 'Roles' | 'Groups' | 'OAuthScopes' | 'OAuthApis' | 'OAuthClients' | 'LoginProviders' | 'ServiceAccounts';
type Item<K extends ListKind> = NonNullable<Manifest[K]>[number];

/** The manifest lists in the order apply writes them, with the entry prefix and the natural key. */
export const LIST_KINDS = [
  { list: 'Apps', kind: 'app', key: KEYS.app, label: (a: Item<'Apps'>) => a.Slug },
  { list: 'Roles', kind: 'role', key: KEYS.role, label: (r: Item<'Roles'>) => `${r.App}/${r.Name}` },
  { list: 'Groups', kind: 'group', key: KEYS.group, label: (g: Item<'Groups'>) => g.Name },
  { list: 'OAuthApis', kind: 'oauth-api', key: KEYS.api, label: (a: Item<'OAuthApis'>) => a.Audience },
  { list: 'OAuthScopes', kind: 'oauth-scope', key: KEYS.scope, label: (s: Item<'OAuthScopes'>) => s.Name },
  { list: 'OAuthClients', kind: 'oauth-client', key: KEYS.client, label: (c: Item<'OAuthClients'>) => c.ClientId },
  { list: 'LoginProviders', kind: 'login-provider', key: KEYS.provider, label: (p: Item<'LoginProviders'>) => p.Name },
  { list: 'ServiceAccounts', kind: 'service-account', key: KEYS.serviceAccount, label: (s: Item<'ServiceAccounts'>) => s.Name },
] as const;

export type KindPlan<T> = { create: T[]; update: { item: T; current: T }[]; delete: T[]; unchanged: number };

export type ManifestPlan = {
  realm: 'update' | 'unchanged';
  settings: 'update' | 'unchanged' | 'absent';
  lists: { [K in ListKind]: KindPlan<Item<K>> };
};

export type PlanAnswer = { Created: string[]; Updated: string[]; Deleted: string[]; Unchanged: number };

function planList<T>(current: readonly T[], desired: readonly T[], key: (item: T) => string, prune: boolean): KindPlan<T> {
  const now = new Map(current.map((item) => [key(item), item]));
  const named = new Set<string>();
  const out: KindPlan<T> = { create: [], update: [], delete: [], unchanged: 0 };
  for (const item of desired) {
    const k = key(item);
    named.add(k);
    const existing = now.get(k);
    if (!existing) out.create.push(item);
    else if (stableJson(existing) !== stableJson(item)) out.update.push({ item, current: existing });
    else out.unchanged++;
  }
  if (prune) out.delete = current.filter((item) => !named.has(key(item)));
  return out;
}

/** Both sides canonical (canonical.ts). */
export function planManifest(current: Manifest, desired: Manifest, options: { prune: boolean }): ManifestPlan {
  const lists = {} as ManifestPlan['lists'];
  for (const k of LIST_KINDS) {
    (lists as Record<string, unknown>)[k.list] = planList(
      (current[k.list] ?? []) as Item<typeof k.list>[],
      (desired[k.list] ?? []) as Item<typeof k.list>[],
      k.key as (item: Item<typeof k.list>) => string,
      options.prune,
    );
  }
  return {
    realm: stableJson(current.Realm) === stableJson(desired.Realm) ? 'unchanged' : 'update',
    settings: desired.Settings === undefined ? 'absent' : stableJson(current.Settings ?? null) === stableJson(desired.Settings) ? 'unchanged' : 'update',
    lists,
  };
}

/** The answer of apply and of a dry run. */
export function planAnswer(plan: ManifestPlan): PlanAnswer {
  const answer: PlanAnswer = { Created: [], Updated: [], Deleted: [], Unchanged: 0 };
  if (plan.realm === 'update') answer.Updated.push('realm:profile');
  else answer.Unchanged++;
  if (plan.settings === 'update') answer.Updated.push('realm:settings');
  else if (plan.settings === 'unchanged') answer.Unchanged++;
  for (const k of LIST_KINDS) {
    const p = plan.lists[k.list] as KindPlan<Item<typeof k.list>>;
    const label = k.label as (item: Item<typeof k.list>) => string;
    answer.Created.push(...p.create.map((i) => `${k.kind}:${label(i)}`));
    answer.Updated.push(...p.update.map((u) => `${k.kind}:${label(u.item)}`));
    answer.Deleted.push(...p.delete.map((i) => `${k.kind}:${label(i)}`));
    answer.Unchanged += p.unchanged;
  }
  return answer;
}

export function planIsEmpty(answer: PlanAnswer): boolean {
  return !answer.Created.length && !answer.Updated.length && !answer.Deleted.length;
}

/**
 * The structure a realm has after the plan ran (both sides canonical): with prune exactly the
 * desired manifest; otherwise what the manifest names plus what it left alone, and the settings it
 * left alone. Apply's writes must produce this; the property tests check plan(result, desired) is empty.
 */
export function planResult(current: Manifest, desired: Manifest, options: { prune: boolean }): Manifest {
  const out: Manifest = { ...desired, Settings: desired.Settings ?? current.Settings };
  if (options.prune) return out;
  for (const k of LIST_KINDS) {
    const key = k.key as (item: Item<typeof k.list>) => string;
    const wanted = (desired[k.list] ?? []) as Item<typeof k.list>[];
    const named = new Set(wanted.map(key));
    const kept = ((current[k.list] ?? []) as Item<typeof k.list>[]).filter((i) => !named.has(key(i)));
    const merged = [...kept, ...wanted].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    (out as Record<string, unknown>)[k.list] = merged;
  }
  return out;
}
