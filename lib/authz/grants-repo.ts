import type { RealmDb } from '../db/types';
import type { GroupNode } from './evaluate';
import { groupGraph } from './group-graph';

/** Whose memberships to walk: a person or a service account (both hold permissions through groups). */
export type Principal = { kind: 'user'; id: string } | { kind: 'service-account'; id: string };

// A principal's direct memberships (read live) and the realm's group graph (cached, group-graph.ts):
// everything the walk of spec 5.7 needs, in one query per request.
export async function loadReachableGroups(db: RealmDb, realmId: string, principal: Principal): Promise<{ direct: string[]; groups: Map<string, GroupNode> }> {
  const memberships =
    principal.kind === 'user'
      ? db.groupMember.findMany({ where: { userId: principal.id }, select: { groupId: true } })
      : db.serviceAccountGroup.findMany({ where: { serviceAccountId: principal.id, serviceAccount: { isActive: true } }, select: { groupId: true } });
  const [rows, groups] = await Promise.all([memberships, groupGraph(realmId, db)]);
  return { direct: rows.map((m) => m.groupId), groups };
}
