import { AppError } from '../errors/app-error';
import { realmDb, type DomainContext } from '../realm/context';
import { collectGrants, hasPermission } from './evaluate';
import { loadReachableGroups } from './grants-repo';
import type { AppContextSlug, MainAppPermission, PermissionOf } from './catalog';

// The one authorization mechanism (spec 5.7). Grants are computed per request and memoised on the
// domain context, so the route wrapper and the domain operation can both check at no extra cost.

export async function grantsOf(ctx: DomainContext, app: AppContextSlug): Promise<ReadonlySet<string>> {
  const actor = ctx.actor;
  if (actor.kind !== 'user' && actor.kind !== 'service-account') return new Set();
  const key = `grants:${app}`;
  const memo = ctx.memo.get(key) as Promise<ReadonlySet<string>> | undefined;
  if (memo) return memo;
  const p = (async () => {
    const graphKey = 'group-graph';
    let graph = ctx.memo.get(graphKey) as ReturnType<typeof loadReachableGroups> | undefined;
    if (!graph) {
      graph = loadReachableGroups(
        await realmDb(ctx.realm),
        ctx.realm.id,
        actor.kind === 'user' ? { kind: 'user', id: actor.userId } : { kind: 'service-account', id: actor.serviceAccountId },
      );
      ctx.memo.set(graphKey, graph);
    }
    const { direct, groups } = await graph;
    return collectGrants(direct, groups, app);
  })();
  ctx.memo.set(key, p);
  return p;
}

/**
 * Throws 401 for anonymous callers and 403 when the permission is missing. System actors pass. The
 * permission must be one of the catalog of the App checked (the main app unless named).
 */
export async function requirePermission(ctx: DomainContext, permission: MainAppPermission): Promise<void>;
export async function requirePermission<A extends AppContextSlug>(ctx: DomainContext, permission: PermissionOf<A>, app: A): Promise<void>;
export async function requirePermission(ctx: DomainContext, permission: string, app: AppContextSlug = 'gatehouse'): Promise<void> {
  if (ctx.actor.kind === 'system') return;
  if (ctx.actor.kind === 'anonymous') throw new AppError('Auth.Unauthenticated');
  const grants = await grantsOf(ctx, app);
  if (!hasPermission(grants, permission)) throw new AppError('Auth.Forbidden', { detail: `Requires ${permission}.` });
}

export function requireUser(ctx: DomainContext): Extract<DomainContext['actor'], { kind: 'user' }> {
  if (ctx.actor.kind !== 'user') throw new AppError('Auth.Unauthenticated');
  return ctx.actor;
}
