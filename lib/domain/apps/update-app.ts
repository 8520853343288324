import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { parseStringList, toJsonList } from '../../db/json-list';
import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { guardGrantChange } from '../groups/grant-change-guard';
import { optionalText } from '../merge-patch';
import { invalidateAppSettingsCache, readStoredAppSettings } from './app-settings';
import { withAppRoute } from './app-routes';
import { catalogOf, checkWrite, gatedChanges, removedPermissions, sectionsOf } from './app-write-rules';
import { parseCatalog, parseSettings } from './catalog-json';
import { requireRealmAdminFor, slugTaken } from './create-app';
import { requireAppRow, type AppRow } from './read-apps';
import type { AppWriteInput } from './schemas';

// PUT /api/app/{id} (spec 4.7 "Applications"): a full replace of Slug, DisplayName, Description,
// PermissionCatalog and Settings. A built-in App changes only its name, description and catalog.
//
// Consistency inside the transaction, under the realm's permission-graph lock (so a concurrent role
// write waits): a permission the new catalog drops that a role still grants refuses the change with
// 409 App.PermissionInUse naming those roles; a new slug is carried into the BoundTo lists of the
// groups bound to the old one, so nobody gains or loses anything by a rename (the no-escalation
// guard checks that on the state that commits).
export async function updateApp(ctx: DomainContext, idOrSlug: string, input: AppWriteInput): Promise<AppRow> {
  await requirePermission(ctx, 'app:write');
  const db = await realmDb(ctx.realm);
  const current = await requireAppRow(db, idOrSlug);
  const settings = checkWrite(input, current);
  await requireRealmAdminFor(ctx, gatedChanges(readStoredAppSettings(current.settings), settings));
  if (input.Slug !== current.slug && (await db.app.findUnique({ where: { slug: input.Slug }, select: { id: true } }))) throw slugTaken(input.Slug);
  const subdomain = settings?.Origin?.Subdomain ?? null;
  const catalog = catalogOf(input);
  let rebound = 0;
  await withAppRoute(ctx.realm.id, current.id, current.isBuiltIn ? null : subdomain, () =>
    onUniqueViolation(
      () =>
        db.$transaction((tx) =>
          guardGrantChange(ctx, tx, { permission: 'app:write' }, async () => {
            const fresh = await requireAppRow(tx, current.id);
            // Again on the row that commits, with the caller's permissions read afresh.
            await requireRealmAdminFor(ctx, gatedChanges(readStoredAppSettings(fresh.settings), settings), tx);
            await assertCatalogStillCovers(tx, fresh.id, removedPermissions(parseCatalog(fresh.permissionCatalog), catalog));
            if (input.Slug !== fresh.slug) rebound = await rebindGroups(tx, fresh.slug, input.Slug);
            await tx.app.update({
              where: { id: fresh.id },
              data: {
                slug: input.Slug,
                displayName: input.DisplayName,
                description: optionalText(input.Description),
                permissionCatalog: JSON.stringify(catalog),
                settings: settings ? JSON.stringify(settings) : null,
                updatedAt: new Date(),
              },
            });
          }),
        ),
      slugTaken(input.Slug),
    ),
  );
  invalidateAppSettingsCache(ctx.realm.id);
  const before = parseSettings(current.settings);
  const changed = [
    ...(input.Slug !== current.slug ? ['Slug'] : []),
    ...(input.DisplayName !== current.displayName ? ['DisplayName'] : []),
    ...(optionalText(input.Description) !== current.description ? ['Description'] : []),
    ...(JSON.stringify(catalog) !== JSON.stringify(parseCatalog(current.permissionCatalog)) ? ['PermissionCatalog'] : []),
    ...(JSON.stringify(settings) !== JSON.stringify(before) ? ['Settings'] : []),
  ];
  await publish(
    eventFrom(ctx, 'app.updated', current.id, {
      appId: current.id,
      slug: input.Slug,
      changed: rebound ? [...changed, 'GroupBoundTo'] : changed,
      sections: sectionsOf(settings),
      routed: Boolean(subdomain),
    }),
  );
  return requireAppRow(db, current.id);
}

/** 409 App.PermissionInUse when a role of the App still grants a permission the catalog drops. */
async function assertCatalogStillCovers(tx: RealmTx, appId: string, removed: readonly string[]): Promise<void> {
  if (!removed.length) return;
  const gone = new Set(removed);
  const roles = await tx.permissionRole.findMany({ where: { appId }, select: { id: true, name: true, permissions: true }, orderBy: { name: 'asc' } });
  const using = roles
    .map((r) => ({ Id: r.id, Name: r.name, Permissions: parseStringList(r.permissions).filter((p) => gone.has(p)) }))
    .filter((r) => r.Permissions.length);
  if (!using.length) return;
  throw new AppError('App.PermissionInUse', {
    detail: `Still granted by ${using.map((r) => `the role ${r.Name} (${r.Permissions.join(', ')})`).join(', ')}. Take the permissions out of those roles first.`,
    errors: {
      PermissionCatalog: using.map((r) => `${r.Permissions.join(', ')} ${r.Permissions.length > 1 ? 'are' : 'is'} still granted by the role ${r.Name}.`),
    },
    extensions: { Roles: using },
  });
}

/** Groups bound to the old slug are bound to the new one (a rename changes no one's holdings). */
async function rebindGroups(tx: RealmTx, from: string, to: string): Promise<number> {
  const groups = await tx.group.findMany({ select: { id: true, boundTo: true } });
  let count = 0;
  for (const g of groups) {
    const list = parseStringList(g.boundTo);
    if (!list.includes(from)) continue;
    await tx.group.update({ where: { id: g.id }, data: { boundTo: toJsonList(list.map((s) => (s === from ? to : s))) } });
    count++;
  }
  return count;
}
