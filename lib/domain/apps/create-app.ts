import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { AppError, isAppError } from '../../errors/app-error';
import { MAIN_APP_SLUG, REALM_ADMIN } from '../../authz/catalog';
import { hasPermission } from '../../authz/evaluate';
import type { RealmTx } from '../../db/types';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { freshAuthority } from '../groups/grant-change-guard';
import { optionalText } from '../merge-patch';
import { invalidateAppSettingsCache } from './app-settings';
import { withAppRoute } from './app-routes';
import { catalogOf, checkWrite, gatedChanges, sectionsOf } from './app-write-rules';
import { requireAppRow, type AppRow } from './read-apps';
import type { AppWriteInput } from './schemas';

// POST /api/app (spec 4.7 "Applications"; CONTRACT.md): Slug (unique, realm slug rules), DisplayName,
// Description?, PermissionCatalog, Settings? (sparse; absent inherits everything). A new App has no
// roles, so it changes nobody's holdings. Settings.Origin.Subdomain claims its address in the global
// routing map first (409 App.SubdomainTaken), which is released again if the App cannot be stored.

/**
 * 403 unless the caller is a realm administrator, when a write changes gated sections (deleting an
 * App that carries one changes it to nothing). With the writing transaction `tx`, the caller's
 * permissions are read afresh under the permission-graph lock, on the state that commits; without,
 * the request's own reading (a cheap early refusal before anything is touched).
 */
export async function requireRealmAdminFor(ctx: DomainContext, sections: readonly string[], tx?: RealmTx): Promise<void> {
  if (!sections.length || ctx.actor.kind === 'system') return;
  try {
    if (!tx) await requirePermission(ctx, REALM_ADMIN);
    else if (!hasPermission((await freshAuthority(ctx, tx)).get(MAIN_APP_SLUG) ?? new Set<string>(), REALM_ADMIN)) throw new AppError('Auth.Forbidden');
  } catch (e) {
    if (!isAppError(e) || e.code !== 'Auth.Forbidden') throw e;
    throw new AppError('Auth.Forbidden', {
      detail: `Changing ${sections.join(', ')} needs ${REALM_ADMIN}, as the realm settings do.`,
      errors: Object.fromEntries(sections.map((s) => [`Settings.${s}`, ['Only a realm administrator may change this section.']])),
    });
  }
}

export function slugTaken(slug: string): AppError {
  return new AppError('App.SlugTaken', { errors: { Slug: [`${slug} is already the slug of another application.`] } });
}

export async function createApp(ctx: DomainContext, input: AppWriteInput): Promise<AppRow> {
  await requirePermission(ctx, 'app:write');
  const settings = checkWrite(input, null);
  await requireRealmAdminFor(ctx, gatedChanges(null, settings));
  const db = await realmDb(ctx.realm);
  if (await db.app.findUnique({ where: { slug: input.Slug }, select: { id: true } })) throw slugTaken(input.Slug);
  const id = newId();
  const subdomain = settings?.Origin?.Subdomain ?? null;
  await withAppRoute(ctx.realm.id, id, subdomain, () =>
    onUniqueViolation(
      () =>
        db.app.create({
          data: {
            id,
            slug: input.Slug,
            displayName: input.DisplayName,
            description: optionalText(input.Description),
            permissionCatalog: JSON.stringify(catalogOf(input)),
            settings: settings ? JSON.stringify(settings) : null,
          },
        }),
      slugTaken(input.Slug),
    ),
  );
  invalidateAppSettingsCache(ctx.realm.id);
  await publish(eventFrom(ctx, 'app.created', id, { appId: id, slug: input.Slug, sections: sectionsOf(settings), routed: Boolean(subdomain) }));
  return requireAppRow(db, id);
}
