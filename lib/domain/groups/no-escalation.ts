import { MAIN_APP_SLUG, REALM_ADMIN, type AppContextSlug } from '../../authz/catalog';
import { GUARDED_APPS } from '../../authz/holdings';
import { hasPermission } from '../../authz/evaluate';
import { grantsOf } from '../../authz/require-permission';
import type { DomainContext } from '../context';

// Acting on a principal's credentials (setting a user's password or e-mail, minting a service
// account's secret) hands over everything that principal holds, so it needs every Gatehouse
// permission the principal holds (users/can-manage.ts, service-accounts/can-manage.ts). Changes to
// who holds what are checked by grant-change-guard.ts instead, on the state that commits.
// Permissions of other Apps are those Apps' business and are not checked. BoundTo is ignored on
// purpose: a dormant group can be woken later.

export type Conferred = { appSlug: string; permissions: readonly string[] };

/** The guarded permissions in `conferred` that the caller does not hold (sorted; none for system actors). */
export async function missingPermissions(ctx: DomainContext, conferred: readonly Conferred[]): Promise<string[]> {
  if (ctx.actor.kind === 'system') return [];
  const missing = new Set<string>();
  for (const { appSlug, permissions } of conferred) {
    // A realm-admin role counts in every App context (spec 5.7.3), so it is checked as such.
    const checks: [AppContextSlug, string][] = permissions.includes(REALM_ADMIN) ? [[MAIN_APP_SLUG, REALM_ADMIN]] : [];
    if ((GUARDED_APPS as readonly string[]).includes(appSlug)) for (const p of permissions) if (p !== REALM_ADMIN) checks.push([appSlug as AppContextSlug, p]);
    for (const [app, permission] of checks) {
      if (!hasPermission(await grantsOf(ctx, app), permission)) missing.add(app === MAIN_APP_SLUG ? permission : `${app}/${permission}`);
    }
  }
  return [...missing].sort();
}
