// Pure walks over the group nesting graph (spec 5.7: members of a child group are members of its
// parents, transitively). Storage-free so cycles, shortest chains and membership can be tested
// exhaustively; graph-repo.ts loads the maps.

/** child id -> parent ids. */
export type ParentMap = ReadonlyMap<string, readonly string[]>;
/** group id -> user ids of its direct members. */
export type MemberMap = ReadonlyMap<string, readonly string[]>;

/**
 * The cycle that giving `groupId` exactly the parents `newParents` would create, as a chain of ids
 * from the group back to itself (`[g, p, …, g]`), or null when the nesting stays acyclic.
 */
export function findCycle(parentsOf: ParentMap, groupId: string, newParents: readonly string[]): string[] | null {
  const parents = (id: string) => (id === groupId ? newParents : (parentsOf.get(id) ?? []));
  // Breadth-first upwards from the group; `below` remembers how each ancestor was reached.
  const below = new Map<string, string>();
  const queue: string[] = [groupId];
  while (queue.length) {
    const id = queue.shift()!;
    for (const parent of parents(id)) {
      if (parent === groupId) {
        const chain = [id];
        while (chain[0] !== groupId) chain.unshift(below.get(chain[0])!);
        return [...chain, groupId];
      }
      if (below.has(parent)) continue;
      below.set(parent, id);
      queue.push(parent);
    }
  }
  return null;
}

export type ReachedGroup = {
  id: string;
  /** The principal is a direct member of this group. */
  direct: boolean;
  /** Shortest chain from one of the direct groups up to this group, both ends included. */
  path: string[];
};

/** Every group reached from direct memberships through parent edges, each with its shortest chain. */
export function reachGroups(directIds: readonly string[], parentsOf: ParentMap): Map<string, ReachedGroup> {
  const reached = new Map<string, ReachedGroup>();
  const queue: string[] = [];
  for (const id of directIds) {
    if (reached.has(id)) continue;
    reached.set(id, { id, direct: true, path: [id] });
    queue.push(id);
  }
  while (queue.length) {
    const current = reached.get(queue.shift()!)!;
    for (const parent of parentsOf.get(current.id) ?? []) {
      if (reached.has(parent)) continue; // visited set: cycles end (spec 5.7.3)
      reached.set(parent, { id: parent, direct: false, path: [...current.path, parent] });
      queue.push(parent);
    }
  }
  return reached;
}

/** parent id -> child ids. */
function invert(parentsOf: ParentMap): Map<string, string[]> {
  const childrenOf = new Map<string, string[]>();
  for (const [child, parents] of parentsOf) {
    for (const parent of parents) (childrenOf.get(parent) ?? childrenOf.set(parent, []).get(parent)!).push(child);
  }
  return childrenOf;
}

/**
 * The group and all groups nested below it, nearest first, each with the chain from it up to the
 * group (`[descendant, …, groupId]`).
 */
export function descendantsOf(groupId: string, parentsOf: ParentMap): Map<string, string[]> {
  const childrenOf = invert(parentsOf);
  const chains = new Map<string, string[]>([[groupId, [groupId]]]);
  const queue = [groupId];
  while (queue.length) {
    const id = queue.shift()!;
    for (const child of childrenOf.get(id) ?? []) {
      if (chains.has(child)) continue;
      chains.set(child, [child, ...chains.get(id)!]);
      queue.push(child);
    }
  }
  return chains;
}

export type MemberRoute = {
  userId: string;
  direct: boolean;
  /** Shortest chain from the member's own group up to the group asked about. */
  via: string[];
};

/** Direct members of a group and members of every group nested below it (spec 5.7). */
export function effectiveMembers(groupId: string, parentsOf: ParentMap, membersOf: MemberMap): Map<string, MemberRoute> {
  const routes = new Map<string, MemberRoute>();
  // descendantsOf yields nearest groups first, so the first route kept is a shortest one.
  for (const [descendant, chain] of descendantsOf(groupId, parentsOf)) {
    for (const userId of membersOf.get(descendant) ?? []) {
      if (!routes.has(userId)) routes.set(userId, { userId, direct: descendant === groupId, via: chain });
    }
  }
  return routes;
}
