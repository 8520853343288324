import { MAIN_APP_SLUG, REALM_ADMIN } from '../../authz/catalog';
import { collectGrants, hasPermission } from '../../authz/evaluate';
import { loadGroupNodes } from '../../authz/group-graph';
import type { RealmTx } from '../../db/types';

// Whether the realm has a live administrator: an active, not deleted person who holds realm:admin
// through a group (directly or nested), whichever groups and roles confer it. Apply compares before
// and after its writes and refuses a manifest that would leave nobody (prune is the usual way there:
// a pruned group or role took the last administrators' authority with it).
export async function hasLiveAdministrator(tx: RealmTx): Promise<boolean> {
  const nodes = await loadGroupNodes(tx);
  const conferring = [...nodes.keys()].filter((id) => hasPermission(collectGrants([id], nodes, MAIN_APP_SLUG), REALM_ADMIN));
  if (!conferring.length) return false;
  const member = await tx.groupMember.findFirst({
    where: { groupId: { in: conferring }, user: { isActive: true, deletedAt: null, anonymizedAt: null } },
    select: { userId: true },
  });
  return Boolean(member);
}
