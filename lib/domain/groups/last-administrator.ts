import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { descendantsOf, effectiveMembers, type MemberMap } from './graph';
import { loadMembers, loadParentMap, lockPermissionGraph } from './graph-repo';
import { BUILT_IN_IDS } from '../built-in-ids';

// Guard rail: a realm must keep at least one active, non-deleted member of the built-in
// Administrators group (direct, or through a group nested in it, spec 5.7), or nobody could
// administer it again short of the recovery command. Every change that can shrink that set
// (delete, deactivate, leave the group, re-nest or delete a group) runs this inside its transaction.

export type AdministratorChange = {
  removedUserIds?: readonly string[];
  removedMembership?: { userId: string; groupId: string };
  /** A group's parents replaced by these. */
  reparented?: { groupId: string; parentIds: readonly string[] };
  deletedGroupId?: string;
};

export async function assertAdministratorsRemain(tx: RealmTx, change: AdministratorChange): Promise<void> {
  const admins = BUILT_IN_IDS.administratorsGroup;
  // Two concurrent removals of the last two administrators cannot both pass the check.
  await lockPermissionGraph(tx);

  const before = await loadParentMap(tx);
  const after = applyGraphChange(before, change);
  const groupIds = new Set([...descendantsOf(admins, before).keys(), ...descendantsOf(admins, after).keys()]);
  const members = await loadMembers(tx, [...groupIds], true);

  if (leavesNoAdministrator(admins, before, members, change)) throw new AppError('User.LastAdministrator');
}

/** Pure core: true when the realm has live administrators now and would have none after `change`. */
export function leavesNoAdministrator(adminsId: string, parentsOf: Map<string, string[]>, members: MemberMap, change: AdministratorChange): boolean {
  const current = effectiveMembers(adminsId, parentsOf, members);
  const remaining = effectiveMembers(adminsId, applyGraphChange(parentsOf, change), applyMemberChange(members, change));
  return current.size > 0 && remaining.size === 0;
}

function applyGraphChange(parentsOf: Map<string, string[]>, change: AdministratorChange): Map<string, string[]> {
  const next = new Map(parentsOf);
  if (change.reparented) next.set(change.reparented.groupId, [...change.reparented.parentIds]);
  const gone = change.deletedGroupId;
  if (gone) {
    next.delete(gone);
    for (const [child, parents] of next)
      if (parents.includes(gone))
        next.set(
          child,
          parents.filter((p) => p !== gone),
        );
  }
  return next;
}

function applyMemberChange(members: MemberMap, change: AdministratorChange): MemberMap {
  const removed = new Set(change.removedUserIds ?? []);
  const next = new Map<string, string[]>();
  for (const [groupId, userIds] of members) {
    if (groupId === change.deletedGroupId) continue;
    next.set(
      groupId,
      userIds.filter((u) => !removed.has(u) && !(change.removedMembership?.groupId === groupId && change.removedMembership.userId === u)),
    );
  }
  return next;
}
