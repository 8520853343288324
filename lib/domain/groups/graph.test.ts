import { describe, expect, it } from 'vitest';
import { descendantsOf, effectiveMembers, findCycle, reachGroups } from './graph';

// child -> parents
const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe('findCycle', () => {
  it('accepts an acyclic nesting', () => {
    const parents = graph({ a: ['b'], b: ['c'] });
    expect(findCycle(parents, 'd', ['a', 'c'])).toBeNull();
    expect(findCycle(parents, 'a', ['c'])).toBeNull();
  });

  it('rejects a group as its own parent', () => {
    expect(findCycle(graph({}), 'a', ['a'])).toEqual(['a', 'a']);
  });

  it('rejects making an ancestor a child of its descendant, naming the chain', () => {
    const parents = graph({ a: ['b'], b: ['c'] });
    expect(findCycle(parents, 'c', ['a'])).toEqual(['c', 'a', 'b', 'c']);
  });

  it('uses the new parents of the group, not the stored ones', () => {
    // a currently nests in b; replacing a's parents by [] and nesting b under a is fine.
    const parents = graph({ a: ['b'] });
    expect(findCycle(parents, 'b', ['a'])).toEqual(['b', 'a', 'b']);
    expect(findCycle(graph({ a: [] }), 'b', ['a'])).toBeNull();
  });

  it('terminates on an already cyclic stored graph that does not involve the group', () => {
    const parents = graph({ x: ['y'], y: ['x'] });
    expect(findCycle(parents, 'g', ['x'])).toBeNull();
  });
});

describe('reachGroups', () => {
  it('marks direct groups and gives inherited ones their shortest chain', () => {
    const parents = graph({ a: ['b'], b: ['c'], d: ['c'] });
    const reached = reachGroups(['a', 'd'], parents);
    expect(reached.get('a')).toEqual({ id: 'a', direct: true, path: ['a'] });
    expect(reached.get('b')).toEqual({ id: 'b', direct: false, path: ['a', 'b'] });
    expect(reached.get('c')).toEqual({ id: 'c', direct: false, path: ['d', 'c'] });
  });

  it('keeps a group that is both direct and inherited as direct, and ends on cycles', () => {
    const reached = reachGroups(['a', 'b'], graph({ a: ['b'], b: ['a'] }));
    expect(reached.get('b')?.direct).toBe(true);
    expect(reached.size).toBe(2);
  });
});

describe('effective members', () => {
  const parents = graph({ team: ['dept'], dept: ['admins'], other: ['admins'] });
  const members = new Map([
    ['admins', ['u1']],
    ['dept', ['u2']],
    ['team', ['u2', 'u3']],
    ['other', ['u4']],
  ]);

  it('lists the group and its descendants nearest first', () => {
    expect([...descendantsOf('admins', parents).keys()]).toEqual(['admins', 'dept', 'other', 'team']);
    expect(descendantsOf('admins', parents).get('team')).toEqual(['team', 'dept', 'admins']);
  });

  it('includes direct members and members of nested groups with their shortest chain', () => {
    const routes = effectiveMembers('admins', parents, members);
    expect(routes.get('u1')).toEqual({ userId: 'u1', direct: true, via: ['admins'] });
    expect(routes.get('u2')).toEqual({ userId: 'u2', direct: false, via: ['dept', 'admins'] });
    expect(routes.get('u3')).toEqual({ userId: 'u3', direct: false, via: ['team', 'dept', 'admins'] });
    expect(routes.get('u4')?.via).toEqual(['other', 'admins']);
    expect(effectiveMembers('team', parents, members).size).toBe(2);
  });
});
