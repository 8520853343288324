import type { RealmDb } from '../db/types';
import type { GroupNode } from './evaluate';

// Loads the part of the group graph a principal can reach: its direct groups, then parents level by
// level (one query per nesting level), then the roles of every group reached in one query.
export async function loadReachableGroups(db: RealmDb, userId: string): Promise<{ direct: string[]; groups: Map<string, GroupNode> }> {
  const direct = (await db.groupMember.findMany({ where: { userId }, select: { groupId: true } })).map((m) => m.groupId);
  const parentsOf = new Map<string, string[]>();
  let frontier = direct;
  const seen = new Set(direct);
  while (frontier.length) {
    const edges = await db.groupParent.findMany({ where: { childId: { in: frontier } }, select: { childId: true, parentId: true } });
    const next: string[] = [];
    for (const e of edges) {
      (parentsOf.get(e.childId) ?? parentsOf.set(e.childId, []).get(e.childId)!).push(e.parentId);
      if (!seen.has(e.parentId)) {
        seen.add(e.parentId);
        next.push(e.parentId);
      }
    }
    frontier = next;
  }
  const rows = await db.group.findMany({
    where: { id: { in: [...seen] } },
    select: {
      id: true,
      boundTo: true,
      roles: { select: { role: { select: { permissions: true, app: { select: { slug: true } } } } } },
    },
  });
  const groups = new Map<string, GroupNode>();
  for (const row of rows) {
    groups.set(row.id, {
      id: row.id,
      boundTo: parseList(row.boundTo),
      parentIds: parentsOf.get(row.id) ?? [],
      roles: row.roles.map((r) => ({ appSlug: r.role.app.slug, permissions: parseList(r.role.permissions) })),
    });
  }
  return { direct, groups };
}

function parseList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
