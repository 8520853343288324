import type { RealmDb } from '../db/types';
import type { GroupNode } from './evaluate';
import { groupGraph } from './group-graph';

// A principal's direct memberships (read live) and the realm's group graph (cached, group-graph.ts):
// everything the walk of spec 5.7 needs, in one query per request.
export async function loadReachableGroups(db: RealmDb, realmId: string, userId: string): Promise<{ direct: string[]; groups: Map<string, GroupNode> }> {
  const [memberships, groups] = await Promise.all([db.groupMember.findMany({ where: { userId }, select: { groupId: true } }), groupGraph(realmId, db)]);
  return { direct: memberships.map((m) => m.groupId), groups };
}
