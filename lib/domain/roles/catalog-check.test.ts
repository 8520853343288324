import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../apps/catalog-json';
import { normalizePermissions, permissionsOutsideCatalog } from './catalog-check';

describe('role permissions against the App catalog', () => {
  const catalog = parseCatalog(JSON.stringify([{ Name: 'user:read', Description: 'Read users' }, { Name: 'user:write' }, { nope: 1 }]));

  it('parses the stored catalog forgivingly', () => {
    expect(catalog).toEqual([
      { Name: 'user:read', Description: 'Read users' },
      { Name: 'user:write', Description: '' },
    ]);
    expect(parseCatalog('oops')).toEqual([]);
  });

  it('normalises the permission set', () => {
    expect(normalizePermissions([' user:write', 'user:read', 'user:write', ''])).toEqual(['user:read', 'user:write']);
  });

  it('lists every permission outside the catalog', () => {
    expect(permissionsOutsideCatalog(['user:read', 'lead:read', 'user:admin'], catalog)).toEqual(['lead:read', 'user:admin']);
    expect(permissionsOutsideCatalog([], catalog)).toEqual([]);
  });
});
