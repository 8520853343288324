import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GroupNode } from './evaluate';
import { actorGrants, changedGroups, changedHoldings, unheldChanges, type AuthzState } from './holdings';

const APPS = ['gatehouse'];
const node = (id: string, boundTo: string[], roles: [string, string[]][] = [], parentIds: string[] = []): GroupNode => ({
  id,
  boundTo,
  parentIds,
  roles: roles.map(([appSlug, permissions], i) => ({ name: `r${i}`, appSlug, permissions })),
});
const state = (groups: GroupNode[], memberships: Record<string, string[]>, inactive: string[] = []): AuthzState => ({
  apps: APPS,
  groups: new Map(groups.map((g) => [g.id, g])),
  memberships: new Map(Object.entries(memberships)),
  inactive: new Set(inactive),
});

describe('changedHoldings', () => {
  it('waking a dormant group that holds realm:admin changes its members’ holdings', () => {
    const members = { 'user:eve': ['g'] };
    const before = state([node('g', [], [['gatehouse', ['realm:admin']]])], members);
    const after = state([node('g', ['*'], [['gatehouse', ['realm:admin']]])], members);
    expect(changedGroups(APPS, before.groups, after.groups)).toEqual(['g']);
    expect(changedHoldings(before, after, ['user:eve'])).toEqual([{ app: 'gatehouse', permission: 'realm:admin' }]);
  });

  it('making a group dormant strips its members (the rule applies both ways)', () => {
    const members = { 'user:admin': ['g'] };
    const before = state([node('g', ['*'], [['gatehouse', ['user:write']]])], members);
    const after = state([node('g', [], [['gatehouse', ['user:write']]])], members);
    expect(changedHoldings(before, after, ['user:admin'])).toEqual([{ app: 'gatehouse', permission: 'user:write' }]);
  });

  it('joining a dormant group counts in the potential view', () => {
    const groups = [node('g', [], [['gatehouse', ['realm:admin']]])];
    expect(changedHoldings(state(groups, { 'user:eve': [] }), state(groups, { 'user:eve': ['g'] }), ['user:eve'])).toEqual([
      { app: 'gatehouse', permission: 'realm:admin' },
    ]);
  });

  it('a realm-admin role of another App counts as realm:admin; other permissions of other Apps do not', () => {
    const before = state([node('g', ['*'])], { 'user:eve': ['g'] });
    const after = state([node('g', ['*'], [['shop', ['realm:admin', 'cart:write']]])], { 'user:eve': ['g'] });
    expect(changedHoldings(before, after, ['user:eve'])).toEqual([{ app: 'gatehouse', permission: 'realm:admin' }]);
  });

  it('reactivating a service account changes its effective holdings', () => {
    const groups = [node('g', ['*'], [['gatehouse', ['user:read']]])];
    const m = { 'service-account:s': ['g'] };
    expect(changedHoldings(state(groups, m, ['service-account:s']), state(groups, m), ['service-account:s'])).toEqual([
      { app: 'gatehouse', permission: 'user:read' },
    ]);
  });

  it('a permission held through another group too does not change', () => {
    const m = { 'user:eve': ['a', 'b'] };
    const before = state([node('a', ['*'], [['gatehouse', ['user:read']]]), node('b', ['*'], [['gatehouse', ['user:read']]])], m);
    const after = state([node('a', ['*']), node('b', ['*'], [['gatehouse', ['user:read']]])], m);
    expect(changedGroups(APPS, before.groups, after.groups)).toEqual(['a']);
    expect(changedHoldings(before, after, ['user:eve'])).toEqual([]);
  });
});

describe('unheldChanges', () => {
  const actor = actorGrants(state([node('g', ['*'], [['gatehouse', ['user:admin', 'authorization-group:write']]])], { 'user:op': ['g'] }), 'user:op');

  it('allows what the actor holds, directly or through <resource>:admin', () => {
    expect(
      unheldChanges(
        [
          { app: 'gatehouse', permission: 'user:write' },
          { app: 'gatehouse', permission: 'authorization-group:write' },
        ],
        actor,
      ),
    ).toEqual([]);
  });

  it('lists what it does not hold', () => {
    expect(
      unheldChanges(
        [
          { app: 'gatehouse', permission: 'realm:admin' },
          { app: 'gatehouse', permission: 'session:read' },
        ],
        actor,
      ),
    ).toEqual(['realm:admin', 'session:read']);
  });
});

// The guard looks only at members of groups whose grants change (and at principals whose own
// memberships change): for any two graphs over the same memberships, that finds every change the
// whole population would show.
describe('property: members of changed groups are the only ones whose holdings change', () => {
  const groupIds = ['g0', 'g1', 'g2', 'g3', 'g4'];
  const permissions = ['realm:admin', 'user:read', 'user:write', 'user:admin', 'authorization-group:write'];
  const graphArb = fc
    .tuple(
      ...groupIds.map((id) =>
        fc.record({
          boundTo: fc.constantFrom<string[]>([], ['*'], ['gatehouse'], ['shop']),
          roles: fc.array(fc.tuple(fc.constantFrom('gatehouse', 'shop'), fc.subarray(permissions)), { maxLength: 2 }),
          parentIds: fc.subarray(groupIds.filter((g) => g !== id)),
        }),
      ),
    )
    .map((gs) => gs.map((g, i) => node(groupIds[i], g.boundTo, g.roles, g.parentIds)));
  const membershipsArb = fc.dictionary(fc.constantFrom('user:a', 'user:b', 'user:c', 'service-account:s'), fc.subarray(groupIds));

  it('holds for random graphs (cycles included)', () => {
    fc.assert(
      fc.property(graphArb, graphArb, membershipsArb, fc.boolean(), (g1, g2, memberships, saInactive) => {
        const inactive = saInactive ? ['service-account:s'] : [];
        const before = state(g1, memberships, inactive);
        const after = state(g2, memberships, inactive);
        const changed = new Set(changedGroups(APPS, before.groups, after.groups));
        const everyone = Object.keys(memberships);
        const affected = everyone.filter((p) => memberships[p].some((g) => changed.has(g)));
        const key = (cs: { app: string; permission: string }[]) => cs.map((c) => `${c.app}/${c.permission}`).sort();
        expect(key(changedHoldings(before, after, affected))).toEqual(key(changedHoldings(before, after, everyone)));
      }),
      { numRuns: 500 },
    );
  });
});
