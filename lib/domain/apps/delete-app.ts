import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { guardGrantChange } from '../groups/grant-change-guard';
import { appBlockers, appInUse } from './app-blockers';
import { invalidateAppSettingsCache, readStoredAppSettings } from './app-settings';
import { gatedChanges } from './app-write-rules';
import { requireRealmAdminFor } from './create-app';
import { withAppRoute } from './app-routes';
import { requireAppRow } from './read-apps';

// DELETE /api/app/{id} (spec 4.7 "Applications"). The built-in Apps stay (400 App.BuiltIn). An App
// something still uses (its roles, OAuth APIs and clients that name it, redeemable invite codes) is
// refused with 409 App.InUse listing every blocker, and nothing changes. Otherwise its route is
// removed from the global map (put back if the realm write fails), its spent invite codes go with
// it, and the App row is deleted, all under the permission-graph lock. An App that carries a gated
// section (sign-up, native grants, DCR, CIMD) is deleted only by whoever may change that section
// (realm:admin), checked again on the row and the caller's permissions in the deleting transaction:
// otherwise app:write alone could delete it and create it again without the section.
export async function deleteApp(ctx: DomainContext, idOrSlug: string): Promise<void> {
  await requirePermission(ctx, 'app:write');
  const db = await realmDb(ctx.realm);
  const current = await requireAppRow(db, idOrSlug);
  if (current.isBuiltIn) throw new AppError('App.BuiltIn', { detail: `${current.slug} is built in and cannot be deleted.` });
  // Checked first without the route change, so a refusal touches nothing; again under the lock.
  const blockers = await appBlockers(db, current.id);
  if (blockers.length) throw appInUse(blockers);
  await requireRealmAdminFor(ctx, gatedChanges(readStoredAppSettings(current.settings), null));
  let removedInviteCodes = 0;
  await withAppRoute(ctx.realm.id, current.id, null, () =>
    db.$transaction((tx) =>
      guardGrantChange(ctx, tx, { permission: 'app:write' }, async () => {
        const fresh = await requireAppRow(tx, current.id);
        await requireRealmAdminFor(ctx, gatedChanges(readStoredAppSettings(fresh.settings), null), tx);
        const again = await appBlockers(tx, current.id);
        if (again.length) throw appInUse(again);
        removedInviteCodes = (await tx.inviteCode.deleteMany({ where: { appId: current.id } })).count;
        await tx.app.delete({ where: { id: current.id } });
      }),
    ),
  );
  invalidateAppSettingsCache(ctx.realm.id);
  await publish(eventFrom(ctx, 'app.deleted', current.id, { appId: current.id, slug: current.slug, removedInviteCodes }));
}
