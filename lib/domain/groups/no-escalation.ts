import { CONTROL_PLANE_APP_SLUG, MAIN_APP_SLUG, REALM_ADMIN, type AppContextSlug } from '../../authz/catalog';
import { hasPermission } from '../../authz/evaluate';
import { grantsOf } from '../../authz/require-permission';
import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../context';
import { parseStringList } from '../../db/json-list';
import { reachGroups } from './graph';
import { loadParentMap } from './graph-repo';

// Nobody can hand out, or take away, Gatehouse's own permissions they do not hold (spec 5.7 is the
// walk; this is the rule for writing it). Without it, `user:write` alone would let an operator join
// Administrators, and `authorization-group:write` or `permission-role:write` would let one attach
// `realm:admin` to a group they sit in, or strip it from the real administrators. Permissions of
// other Apps are those Apps' business and are not checked. BoundTo is ignored on purpose: a dormant
// group can be woken later.

export type Conferred = { appSlug: string; permissions: readonly string[] };

const GUARDED: readonly string[] = [MAIN_APP_SLUG, CONTROL_PLANE_APP_SLUG];

export async function assertCanConfer(ctx: DomainContext, conferred: readonly Conferred[]): Promise<void> {
  const missing = await missingPermissions(ctx, conferred);
  if (missing.length) throw new AppError('Auth.Forbidden', { detail: `This would change who holds permissions you do not hold: ${missing.join(', ')}.` });
}

/** The guarded permissions in `conferred` that the caller does not hold (sorted; none for system actors). */
export async function missingPermissions(ctx: DomainContext, conferred: readonly Conferred[]): Promise<string[]> {
  if (ctx.actor.kind === 'system') return [];
  const missing = new Set<string>();
  for (const { appSlug, permissions } of conferred) {
    // A realm-admin role counts in every App context (spec 5.7.3), so it is checked as such.
    const checks: [AppContextSlug, string][] = permissions.includes(REALM_ADMIN) ? [[MAIN_APP_SLUG, REALM_ADMIN]] : [];
    if (GUARDED.includes(appSlug)) for (const p of permissions) if (p !== REALM_ADMIN) checks.push([appSlug as AppContextSlug, p]);
    for (const [app, permission] of checks) {
      if (!hasPermission(await grantsOf(ctx, app), permission)) missing.add(app === MAIN_APP_SLUG ? permission : `${app}/${permission}`);
    }
  }
  return [...missing].sort();
}

/** What membership of these groups confers: their roles and those of every group they nest in. */
export async function conferredByGroups(tx: RealmTx, groupIds: readonly string[]): Promise<Conferred[]> {
  if (!groupIds.length) return [];
  const reached = reachGroups(groupIds, await loadParentMap(tx));
  const links = await tx.groupRole.findMany({
    where: { groupId: { in: [...reached.keys()] } },
    select: { role: { select: { permissions: true, app: { select: { slug: true } } } } },
  });
  return links.map((l) => ({ appSlug: l.role.app.slug, permissions: parseStringList(l.role.permissions) }));
}

/** What these roles confer. */
export async function conferredByRoles(tx: RealmTx, roleIds: readonly string[]): Promise<Conferred[]> {
  if (!roleIds.length) return [];
  const roles = await tx.permissionRole.findMany({ where: { id: { in: [...roleIds] } }, select: { permissions: true, app: { select: { slug: true } } } });
  return roles.map((r) => ({ appSlug: r.app.slug, permissions: parseStringList(r.permissions) }));
}
