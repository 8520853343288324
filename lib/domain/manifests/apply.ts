import { REALM_ADMIN } from '../../authz/catalog';
import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { getGlobalDb } from '../../db/global-db';
import { AppError, validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { invalidateRealmCache } from '../../realm/realm-cache';
import { getRealmRecordById } from '../../realm/realm-store';
import { invalidateAppSettingsCache } from '../apps/app-settings';
import { restoreAppRoutes, setAppRoute } from '../apps/app-routes';
import { guardGrantChange } from '../groups/grant-change-guard';
import { lockPermissionGraph } from '../groups/graph-repo';
import { checkUserUpdateScript, configFromBody } from '../login-providers/provider-settings';
import { invalidateRealmSettingsCache } from '../realm-settings/realm-settings';
import { hasLiveAdministrator } from './administrators';
import { KEYS, canonicalManifest } from './canonical';
import { atItem } from './item-errors';
import { parseManifest } from './parse';
import { LIST_KINDS, planAnswer, planIsEmpty, planManifest, type ManifestPlan } from './plan';
import type { ApplyResult, Manifest } from './schema';
import { readRealmState, type RealmState } from './state';
import { writePlan, type ClientSecret, type Pointers } from './writes';

// POST .../apply[?prune=true][&dryRun=true] (spec 4.8, CONTRACT.md "Apps, privacy and manifests").
// The manifest is checked whole first (400 with JSON pointers, nothing written); then, in ONE realm
// transaction under the permission-graph lock: the realm is read, the plan made, the writes run under
// the no-escalation guard, and a realm that would be left without a live administrator is refused.
// A plan with nothing to do writes nothing (apply is idempotent). After commit one event drops the
// caches on every instance and lands in the realm's security log. The realm's DisplayName lives in the
// global store and an App's subdomain in the global routing map: those are written around the realm
// transaction (routes before, undone on failure; the name after commit).

export type ApplyOptions = { prune: boolean; dryRun: boolean };

export async function applyManifest(ctx: DomainContext, raw: unknown, options: ApplyOptions): Promise<ApplyResult> {
  await requirePermission(ctx, REALM_ADMIN);
  const sent = parseManifest(raw);
  return applyParsedManifest(ctx, sent, options);
}

/** The realm-transaction part, for a manifest already parsed (import.ts). */
export async function applyParsedManifest(ctx: DomainContext, sent: Manifest, options: ApplyOptions): Promise<ApplyResult> {
  const desired = canonicalManifest(sent);
  const at = pointers(sent);
  const realm = (await getRealmRecordById(ctx.realm.id)) ?? ctx.realm;
  const db = await realmDb(ctx.realm);
  const preview = await db.$transaction((tx) => readRealmState(tx, realm));
  const previewPlan = planManifest(preview.manifest, desired, options);
  if (options.dryRun) return planAnswer(previewPlan);
  if (planIsEmpty(planAnswer(previewPlan))) return planAnswer(previewPlan);

  // Checks that cannot run in a transaction (the script sandbox is asynchronous and slow).
  for (const p of [...previewPlan.lists.LoginProviders.create, ...previewPlan.lists.LoginProviders.update.map((u) => u.item)]) {
    await atItem(at.LoginProviders(p.Name), () => checkUserUpdateScript(configFromBody(p.Flavor, { ...p, Jit: null }, undefined)));
  }

  const newAppIds = new Map(previewPlan.lists.Apps.create.map((a) => [a.Slug, newId()]));
  const newServiceAccountIds = new Map(previewPlan.lists.ServiceAccounts.create.map((s) => [KEYS.serviceAccount(s), newId()]));
  const routes = await claimAppRoutes(ctx, preview, previewPlan, newAppIds, at);

  let result: { plan: ManifestPlan; secrets: ClientSecret[] };
  try {
    result = await onUniqueViolation(
      () =>
        db.$transaction(async (tx) => {
          await lockPermissionGraph(tx);
          // Read again under the lock: the plan that runs is made from the state it commits over.
          const state = await readRealmState(tx, realm);
          const plan = planManifest(state.manifest, desired, options);
          if (planIsEmpty(planAnswer(plan))) return { plan, secrets: [] };
          const hadAdministrator = await hasLiveAdministrator(tx);
          const principals = [...state.ids.serviceAccounts.values(), ...newServiceAccountIds.values()].map((id) => ({ kind: 'service-account' as const, id }));
          const secrets = await guardGrantChange(ctx, tx, { permission: REALM_ADMIN, principals }, () =>
            writePlan({ ctx, tx, ids: state.ids, newAppIds, newServiceAccountIds, at }, plan, desired),
          );
          if (hadAdministrator && !(await hasLiveAdministrator(tx))) {
            throw new AppError('User.LastAdministrator', {
              detail: 'This manifest would leave the realm without a live administrator (nobody would hold realm:admin); nothing was changed.',
            });
          }
          return { plan, secrets };
        }),
      validationError({ '/': ['Two items would share a unique name in this realm (an item the manifest does not manage may hold it).'] }),
    );
  } catch (e) {
    await routes.undo();
    throw e;
  }
  await routes.release(result.plan);

  const answer = planAnswer(result.plan);
  if (result.plan.realm === 'update') await writeRealmProfile(ctx, desired);
  // This instance's caches at once; other instances through the event (relay, subscribers).
  invalidateRealmSettingsCache(ctx.realm.id);
  invalidateAppSettingsCache(ctx.realm.id);
  if (!planIsEmpty(answer)) {
    await publish(
      eventFrom(ctx, 'manifest.applied', ctx.realm.id, {
        prune: options.prune,
        created: answer.Created.length,
        updated: answer.Updated.length,
        deleted: answer.Deleted.length,
        newClientSecrets: result.secrets.length,
      }),
    );
  }
  return result.secrets.length ? { ...answer, ClientSecrets: result.secrets } : answer;
}

/** Where each item of the sent manifest is, by natural key: errors of the writes point there. */
function pointers(sent: Manifest): Pointers {
  const out = {} as Record<string, (key: string) => string>;
  for (const k of LIST_KINDS) {
    const key = k.key as (item: unknown) => string;
    const index = new Map(((sent[k.list] ?? []) as unknown[]).map((item, i) => [key(item), i]));
    out[k.list] = (itemKey: string) => `/${k.list}/${index.get(itemKey) ?? 0}`;
  }
  return out as Pointers;
}

/**
 * The Apps' subdomains (Settings.Origin.Subdomain) route hosts to them in the global store, as the
 * App endpoints do: claimed before the realm transaction (a taken address answers 409 first) and put
 * back if it fails; pruned Apps give theirs up after commit.
 */
async function claimAppRoutes(ctx: DomainContext, state: RealmState, plan: ManifestPlan, newAppIds: Map<string, string>, at: Pointers) {
  const claimed: { appId: string; before: string[] }[] = [];
  const subdomain = (a: { Settings?: { Origin?: { Subdomain?: string | null } | null } | null }) => a.Settings?.Origin?.Subdomain ?? null;
  const undo = async () => {
    for (const c of claimed) await restoreAppRoutes(ctx.realm.id, c.appId, c.before);
  };
  try {
    for (const a of plan.lists.Apps.create) {
      if (!subdomain(a)) continue;
      const appId = newAppIds.get(a.Slug)!;
      const before = await atItem(at.Apps(a.Slug), () => setAppRoute(ctx.realm.id, appId, subdomain(a)));
      if (before) claimed.push({ appId, before });
    }
    for (const { item, current } of plan.lists.Apps.update) {
      if (subdomain(item) === subdomain(current)) continue;
      const appId = state.ids.apps.get(item.Slug)!;
      const before = await atItem(at.Apps(item.Slug), () => setAppRoute(ctx.realm.id, appId, subdomain(item)));
      if (before) claimed.push({ appId, before });
    }
  } catch (e) {
    await undo();
    throw e;
  }
  return {
    undo,
    release: async (committed: ManifestPlan) => {
      for (const a of committed.lists.Apps.delete) {
        const appId = state.ids.apps.get(a.Slug);
        if (appId && subdomain(a)) await setAppRoute(ctx.realm.id, appId, null);
      }
    },
  };
}

/** The realm's DisplayName and Description live in the global store (spec 2.1). */
async function writeRealmProfile(ctx: DomainContext, desired: Manifest): Promise<void> {
  const global = await getGlobalDb();
  await global.realm.update({
    where: { id: ctx.realm.id },
    data: { displayName: desired.Realm.DisplayName, description: desired.Realm.Description ?? null, updatedAt: new Date(), revision: { increment: 1 } },
  });
  invalidateRealmCache();
}
