import { describe, expect, it } from 'vitest';
import { collectGrants, collectRoleNames, expandGrants, hasPermission, type GroupNode } from './evaluate';

const g = (id: string, boundTo: string[], parentIds: string[], roles: GroupNode['roles']): [string, GroupNode] => [id, { id, boundTo, parentIds, roles }];

describe('collectGrants', () => {
  it('walks parents transitively and survives cycles', () => {
    const groups = new Map([
      g('a', ['*'], ['b'], [{ name: 'r1', appSlug: 'gatehouse', permissions: ['user:read'] }]),
      g('b', ['gatehouse'], ['c'], [{ name: 'r2', appSlug: 'gatehouse', permissions: ['authorization-group:read'] }]),
      g('c', ['*'], ['a'], [{ name: 'r3', appSlug: 'gatehouse', permissions: ['permission-role:write'] }]),
    ]);
    expect([...collectGrants(['a'], groups, 'gatehouse')].sort()).toEqual(['authorization-group:read', 'permission-role:write', 'user:read']);
  });

  it('skips groups not bound to the app and dormant groups, but still walks through them', () => {
    const groups = new Map([
      g('dormant', [], ['parent'], [{ name: 'r4', appSlug: 'gatehouse', permissions: ['user:write'] }]),
      g('other', ['crm'], [], [{ name: 'r5', appSlug: 'gatehouse', permissions: ['app:write'] }]),
      g('parent', ['gatehouse'], [], [{ name: 'r6', appSlug: 'gatehouse', permissions: ['user:read'] }]),
    ]);
    expect([...collectGrants(['dormant', 'other'], groups, 'gatehouse')]).toEqual(['user:read']);
  });

  it('keeps only roles of the app, plus realm-admin roles of any app', () => {
    const groups = new Map([
      g(
        'x',
        ['*'],
        [],
        [
          { name: 'r7', appSlug: 'crm', permissions: ['lead:read'] },
          { name: 'r8', appSlug: 'gatehouse', permissions: ['realm:admin'] },
        ],
      ),
    ]);
    expect([...collectGrants(['x'], groups, 'control-plane')]).toEqual(['realm:admin']);
    expect([...collectGrants(['x'], groups, 'crm')].sort()).toEqual(['lead:read', 'realm:admin']);
  });
});

describe('collectRoleNames', () => {
  it('names the roles of the app reached through bound groups, once each, sorted', () => {
    const groups = new Map([
      g('a', ['*'], ['b'], [{ name: 'Viewer', appSlug: 'crm', permissions: ['lead:read'] }]),
      g(
        'b',
        ['crm'],
        [],
        [
          { name: 'Editor', appSlug: 'crm', permissions: ['lead:write'] },
          { name: 'Admin', appSlug: 'gatehouse', permissions: ['realm:admin'] },
        ],
      ),
      g('c', ['gatehouse'], [], [{ name: 'Hidden', appSlug: 'crm', permissions: ['lead:read'] }]),
    ]);
    expect(collectRoleNames(['a', 'c'], groups, 'crm')).toEqual(['Editor', 'Viewer']);
    expect(collectRoleNames(['a'], groups, 'gatehouse')).toEqual([]); // b is bound to crm only
  });
});

describe('hasPermission', () => {
  it('accepts realm:admin, the exact permission or <resource>:admin', () => {
    expect(hasPermission(new Set(['realm:admin']), 'user:write')).toBe(true);
    expect(hasPermission(new Set(['user:write']), 'user:write')).toBe(true);
    expect(hasPermission(new Set(['user:admin']), 'user:read')).toBe(true);
    expect(hasPermission(new Set(['control-plane:realm:admin']), 'control-plane:realm:write')).toBe(true);
    expect(hasPermission(new Set(['user:read']), 'user:write')).toBe(false);
    expect(hasPermission(new Set(['user:admin']), 'session:read')).toBe(false);
  });
});

describe('expandGrants', () => {
  it('pre-expands admin grants against the catalog', () => {
    expect(expandGrants(new Set(['user:admin']), ['user:read', 'user:write', 'app:read'])).toEqual(['user:admin', 'user:read', 'user:write']);
  });
});
