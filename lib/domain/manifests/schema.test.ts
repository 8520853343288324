import { describe, expect, it } from 'vitest';
import { MANIFEST_EXAMPLE } from './example';
import { manifestJsonSchema } from './json-schema';
import { checkManifest, jsonPointer } from './parse';

const base = { Version: 1, Realm: { DisplayName: 'R' } };

function errorsOf(raw: unknown): Record<string, string[]> {
  const checked = checkManifest(raw);
  if (checked.ok) throw new Error('expected the manifest to be refused');
  return checked.errors;
}

describe('manifest schema', () => {
  it('accepts its own example', () => {
    const checked = checkManifest(MANIFEST_EXAMPLE);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
  });

  it('answers a JSON Schema 2020-12 generated from the zod schema', () => {
    const { Schema, Example } = manifestJsonSchema();
    expect(Schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const props = Schema.properties as Record<string, unknown>;
    expect(Object.keys(props)).toEqual(expect.arrayContaining(['Version', 'Realm', 'Apps', 'Groups', 'OAuthClients', 'ServiceAccounts']));
    expect(Schema.required).toEqual(expect.arrayContaining(['Version', 'Realm']));
    expect(Example).toBe(MANIFEST_EXAMPLE);
  });

  it('matches property names case-insensitively', () => {
    expect(checkManifest({ version: 1, realm: { displayname: 'R' }, groups: [{ name: 'A' }] }).ok).toBe(true);
  });

  it('points at a dangling role reference', () => {
    const errors = errorsOf({ ...base, Groups: [{ Name: 'A' }, { Name: 'B' }, { Name: 'C' }, { Name: 'D', Roles: [{ App: 'crm', Name: 'Editor' }] }] });
    expect(Object.keys(errors)).toEqual(['/Groups/3/Roles/0']);
  });

  it('points at dangling parents, BoundTo, scopes, resources, default groups and service-account groups', () => {
    const errors = errorsOf({
      ...base,
      Groups: [{ Name: 'A', ParentGroups: ['Nope'], BoundTo: ['ghost'] }],
      OAuthScopes: [{ Name: 's1', Resources: ['https://nowhere'] }],
      OAuthClients: [{ ClientId: 'c', DisplayName: 'C', ClientType: 'Confidential', GrantTypes: ['client_credentials'], Scopes: ['missing'], App: 'ghost' }],
      LoginProviders: [{ Name: 'P', Flavor: 'Oidc', Oidc: { Authority: 'https://idp.example', ClientId: 'x' }, Jit: { DefaultGroups: ['Nope'] } }],
      ServiceAccounts: [{ Name: 'S', Groups: ['Nope'] }],
    });
    expect(Object.keys(errors).sort()).toEqual(
      [
        '/Groups/0/BoundTo/0',
        '/Groups/0/ParentGroups/0',
        '/LoginProviders/0/Jit/DefaultGroups/0',
        '/OAuthClients/0/App',
        '/OAuthClients/0/Scopes/0',
        '/OAuthScopes/0/Resources/0',
        '/ServiceAccounts/0/Groups/0',
      ].sort(),
    );
  });

  it('lets items refer to built-ins', () => {
    const checked = checkManifest({
      ...base,
      Roles: [{ App: 'gatehouse', Name: 'Auditor', Permissions: ['auth-log:read'] }],
      Groups: [
        {
          Name: 'Ops',
          ParentGroups: ['administrators'],
          Roles: [
            { App: 'gatehouse', Name: 'Realm administrator' },
            { App: 'gatehouse', Name: 'auditor' },
          ],
        },
      ],
      OAuthClients: [
        {
          ClientId: 'c',
          DisplayName: 'C',
          ClientType: 'Public',
          GrantTypes: ['authorization_code'],
          RedirectUris: ['https://a.example/cb'],
          Scopes: ['openid'],
        },
      ],
    });
    expect(checked.ok ? [] : checked.errors).toEqual([]);
  });

  it('refuses unknown keys, prototype keys, duplicates, built-ins and catalog misses', () => {
    const errors = errorsOf({
      ...base,
      Apps: [
        { Slug: 'crm', DisplayName: 'CRM', PermissionCatalog: [{ Name: 'a:read' }] },
        { Slug: 'crm', DisplayName: 'CRM again', PermissionCatalog: [] },
        { Slug: 'gatehouse', DisplayName: 'Mine', PermissionCatalog: [] },
      ],
      Roles: [{ App: 'crm', Name: 'R', Permissions: ['a:read', 'a:write'] }],
    });
    expect(Object.keys(errors).sort()).toEqual(['/Apps/1/Slug', '/Apps/2/Slug', '/Roles/0/Permissions/1']);
    const strays = errorsOf(
      JSON.parse(
        '{"Version":1,"Realm":{"DisplayName":"R","__proto__":{"x":1}},"Colour":"red","Apps":[{"Slug":"crm","DisplayName":"CRM","PermissionCatalog":[],"Owner":"x"}]}',
      ),
    );
    expect(Object.keys(strays).sort()).toEqual(['/Apps/0/Owner', '/Colour', '/Realm/__proto__']);
  });

  it('points at a bad field and at a nesting cycle', () => {
    expect(Object.keys(errorsOf({ ...base, OAuthClients: [{ ClientId: 'c', DisplayName: 'C', ClientType: 'Sideways', GrantTypes: [] }] }))).toEqual([
      '/OAuthClients/0/ClientType',
    ]);
    const cycle = errorsOf({
      ...base,
      Groups: [
        { Name: 'A', ParentGroups: ['B'] },
        { Name: 'B', ParentGroups: ['C'] },
        { Name: 'C', ParentGroups: ['a'] },
      ],
    });
    expect(Object.keys(cycle)).toHaveLength(1);
    expect(Object.keys(cycle)[0]).toMatch(/^\/Groups\/\d\/ParentGroups$/);
  });

  it('escapes JSON pointer segments (RFC 6901)', () => {
    expect(jsonPointer(['Apps', 0, 'a/b~c'])).toBe('/Apps/0/a~1b~0c');
    expect(jsonPointer([])).toBe('/');
  });
});
