import { describe, expect, it } from 'vitest';
import { collectGrants, expandGrants, hasPermission, type GroupNode } from './evaluate';

const g = (id: string, boundTo: string[], parentIds: string[], roles: GroupNode['roles']): [string, GroupNode] => [id, { id, boundTo, parentIds, roles }];

describe('collectGrants', () => {
  it('walks parents transitively and survives cycles', () => {
    const groups = new Map([
      g('a', ['*'], ['b'], [{ appSlug: 'gatehouse', permissions: ['user:read'] }]),
      g('b', ['gatehouse'], ['c'], [{ appSlug: 'gatehouse', permissions: ['authorization-group:read'] }]),
      g('c', ['*'], ['a'], [{ appSlug: 'gatehouse', permissions: ['permission-role:write'] }]),
    ]);
    expect([...collectGrants(['a'], groups, 'gatehouse')].sort()).toEqual(['authorization-group:read', 'permission-role:write', 'user:read']);
  });

  it('skips groups not bound to the app and dormant groups, but still walks through them', () => {
    const groups = new Map([
      g('dormant', [], ['parent'], [{ appSlug: 'gatehouse', permissions: ['user:write'] }]),
      g('other', ['crm'], [], [{ appSlug: 'gatehouse', permissions: ['app:write'] }]),
      g('parent', ['gatehouse'], [], [{ appSlug: 'gatehouse', permissions: ['user:read'] }]),
    ]);
    expect([...collectGrants(['dormant', 'other'], groups, 'gatehouse')]).toEqual(['user:read']);
  });

  it('keeps only roles of the app, plus realm-admin roles of any app', () => {
    const groups = new Map([
      g('x', ['*'], [], [
        { appSlug: 'crm', permissions: ['lead:read'] },
        { appSlug: 'gatehouse', permissions: ['realm:admin'] },
      ]),
    ]);
    expect([...collectGrants(['x'], groups, 'control-plane')]).toEqual(['realm:admin']);
    expect([...collectGrants(['x'], groups, 'crm')].sort()).toEqual(['lead:read', 'realm:admin']);
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
