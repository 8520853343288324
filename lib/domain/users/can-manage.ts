import { CONTROL_PLANE_APP_SLUG, MAIN_APP_SLUG } from '../../authz/catalog';
import { collectGrants } from '../../authz/evaluate';
import { loadReachableGroups } from '../../authz/grants-repo';
import type { RealmDb } from '../../db/types';
import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../context';
import { missingPermissions, type Conferred } from '../groups/no-escalation';

// The other half of groups/no-escalation.ts: with `user:write` alone one could set an
// administrator's password, or point their e-mail at one's own mailbox and reset it, and sign in as
// them. So changing, deactivating or deleting a user needs every Gatehouse permission that user
// holds (realm:admin holds all). Users without Gatehouse permissions — nearly all — cost one walk.
export async function assertCanManageUsers(ctx: DomainContext, db: RealmDb, userIds: readonly string[]): Promise<void> {
  if (ctx.actor.kind === 'system') return;
  const held: Conferred[] = [];
  for (const id of userIds) {
    const { direct, groups } = await loadReachableGroups(db, ctx.realm.id, { kind: 'user', id });
    for (const app of [MAIN_APP_SLUG, CONTROL_PLANE_APP_SLUG]) {
      const grants = collectGrants(direct, groups, app);
      if (grants.size) held.push({ appSlug: app, permissions: [...grants] });
    }
  }
  const missing = await missingPermissions(ctx, held);
  if (missing.length) throw new AppError('Auth.Forbidden', { detail: `The user holds permissions you do not hold: ${missing.join(', ')}.` });
}
