import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalManifest } from './canonical';
import { planAnswer, planIsEmpty, planManifest, planResult } from './plan';
import type { Manifest } from './schema';

// A small world of natural keys, so generated realms overlap often (updates, deletes, creates).
const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const manifestArb: fc.Arbitrary<Manifest> = fc
  .record({
    realm: pick('Acme', 'Acme Corp'),
    settings: fc.option(fc.record({ SignIn: fc.record({ Password: fc.boolean() }) }), { nil: undefined }),
    apps: fc.uniqueArray(
      fc.record({ Slug: pick('crm', 'shop', 'hr'), DisplayName: pick('One', 'Two'), PermissionCatalog: fc.constant([{ Name: 'a:read' }]).map((c) => [...c]) }),
      {
        selector: (a) => a.Slug,
        maxLength: 3,
      },
    ),
    roles: fc.uniqueArray(fc.record({ App: pick('crm', 'shop'), Name: pick('Viewer', 'Editor'), Permissions: fc.subarray(['a:read', 'a:write']) }), {
      selector: (r) => `${r.App}/${r.Name}`,
      maxLength: 4,
    }),
    groups: fc.uniqueArray(
      fc.record({
        Name: pick('Sales', 'Staff', 'Ops'),
        BoundTo: pick(['*'], ['crm'], [] as string[]),
        Roles: fc.subarray([{ App: 'crm', Name: 'Viewer' }]),
        ParentGroups: fc.subarray(['Staff']),
      }),
      { selector: (g) => g.Name, maxLength: 3 },
    ),
    clients: fc.uniqueArray(
      fc.record({
        ClientId: pick('web', 'cli', 'sync'),
        DisplayName: pick('Web', 'CLI'),
        ClientType: pick('Public' as const, 'Confidential' as const),
        GrantTypes: pick(['authorization_code'], ['client_credentials']),
        Scopes: fc.option(fc.subarray(['openid', 'profile']), { nil: undefined }),
      }),
      { selector: (c) => c.ClientId, maxLength: 3 },
    ),
    accounts: fc.uniqueArray(fc.record({ Name: pick('Reporter', 'Importer'), Groups: fc.subarray(['Sales', 'Ops']) }), {
      selector: (s) => s.Name,
      maxLength: 2,
    }),
  })
  .map((r): Manifest =>
    canonicalManifest({
      Version: 1,
      Realm: { DisplayName: r.realm },
      Settings: r.settings as Manifest['Settings'],
      Apps: r.apps,
      Roles: r.roles,
      Groups: r.groups,
      OAuthClients: r.clients,
      ServiceAccounts: r.accounts,
    } as unknown as Manifest),
  );

const count = (m: Manifest) =>
  1 +
  (m.Settings ? 1 : 0) +
  [m.Apps, m.Roles, m.Groups, m.OAuthScopes, m.OAuthApis, m.OAuthClients, m.LoginProviders, m.ServiceAccounts].reduce((n, l) => n + (l?.length ?? 0), 0);

describe('planManifest', () => {
  it('names creates, updates and deletes by kind and natural key', () => {
    const current = canonicalManifest({
      Version: 1,
      Realm: { DisplayName: 'Acme' },
      Apps: [{ Slug: 'crm', DisplayName: 'CRM', PermissionCatalog: [] }],
      Roles: [{ App: 'crm', Name: 'Editor', Permissions: [] }],
      Groups: [{ Name: 'Sales' }, { Name: 'Old' }],
    });
    const desired = canonicalManifest({
      Version: 1,
      Realm: { DisplayName: 'Acme' },
      Apps: [{ Slug: 'crm', DisplayName: 'CRM 2', PermissionCatalog: [] }],
      Roles: [{ App: 'crm', Name: 'editor', Permissions: [] }],
      Groups: [{ Name: 'sales' }, { Name: 'New', ParentGroups: ['SALES'] }],
      OAuthClients: [{ ClientId: 'web', DisplayName: 'Web', ClientType: 'Public', GrantTypes: ['authorization_code'] }],
    });
    const merge = planAnswer(planManifest(current, desired, { prune: false }));
    expect(merge.Created).toEqual(['group:New', 'oauth-client:web']);
    // Renaming by case is an update of the same item (group and role names are case-insensitive keys).
    expect(merge.Updated).toEqual(['app:crm', 'role:crm/editor', 'group:sales']);
    expect(merge.Deleted).toEqual([]);
    expect(merge.Unchanged).toBe(1);
    const prune = planAnswer(planManifest(current, desired, { prune: true }));
    expect(prune.Deleted).toEqual(['group:Old']);
    // References are spelt as the item they name.
    expect(desired.Groups?.find((g) => g.Name === 'New')?.ParentGroups).toEqual(['sales']);
  });

  it('fills defaults so a manifest that omits them matches the realm', () => {
    const stored = canonicalManifest({
      Version: 1,
      Realm: { DisplayName: 'Acme', Description: null },
      OAuthClients: [
        {
          ClientId: 'web',
          DisplayName: 'Web',
          ClientType: 'Public',
          ConsentType: 'Explicit',
          AccessTokenType: 'Jwt',
          GrantTypes: ['authorization_code'],
          Scopes: ['openid'],
          RedirectUris: [],
          PostLogoutRedirectUris: [],
          Capabilities: [],
          IsActive: true,
        },
      ],
      Groups: [{ Name: 'Sales', BoundTo: ['*'], Roles: [], ParentGroups: [], Description: '' }],
    });
    const terse = canonicalManifest({
      Version: 1,
      Realm: { DisplayName: 'Acme' },
      OAuthClients: [{ ClientId: 'web', DisplayName: 'Web', ClientType: 'Public', GrantTypes: ['authorization_code'] }],
      Groups: [{ Name: 'Sales' }],
    });
    expect(planIsEmpty(planAnswer(planManifest(stored, terse, { prune: true })))).toBe(true);
  });

  it('plan(x, x) is empty and counts everything unchanged', () => {
    fc.assert(
      fc.property(manifestArb, fc.boolean(), (x, prune) => {
        const answer = planAnswer(planManifest(x, x, { prune }));
        expect(planIsEmpty(answer)).toBe(true);
        expect(answer.Unchanged).toBe(count(x));
      }),
    );
  });

  it('re-planning against the result of a plan finds nothing to do', () => {
    fc.assert(
      fc.property(manifestArb, manifestArb, fc.boolean(), (current, desired, prune) => {
        const after = planResult(current, desired, { prune });
        expect(planIsEmpty(planAnswer(planManifest(after, desired, { prune })))).toBe(true);
      }),
    );
  });

  it('deletes nothing without prune, and with prune exactly what the manifest does not name', () => {
    fc.assert(
      fc.property(manifestArb, manifestArb, (current, desired) => {
        expect(planAnswer(planManifest(current, desired, { prune: false })).Deleted).toEqual([]);
        const deleted = planAnswer(planManifest(current, desired, { prune: true })).Deleted;
        const names = (m: Manifest) =>
          new Set([...(m.Apps ?? []).map((a) => `app:${a.Slug}`), ...(m.Groups ?? []).map((g) => `group:${g.Name.toLowerCase()}`)]);
        const wanted = names(desired);
        const expected = [...names(current)].filter((n) => !wanted.has(n));
        const got = deleted.filter((d) => d.startsWith('app:') || d.startsWith('group:')).map((d) => (d.startsWith('group:') ? d.toLowerCase() : d));
        expect(got.sort()).toEqual(expected.sort());
      }),
    );
  });
});
