import { expect } from 'vitest';
import { api, type SignedIn } from '../support/harness';

// A realm's structure made through the ordinary admin API (not through a manifest), so export is
// checked against what the product itself stored: an App with a catalog, roles on it and on the
// built-in App, nested groups with BoundTo, an OAuth API and a scope for it, a confidential and a
// public client, an OIDC provider with a just-in-time default group, and a service account.

async function post(admin: SignedIn, path: string, body: unknown): Promise<any> {
  const res = await api(admin.host, 'POST', path, { cookie: admin.jar, body });
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.body;
}

export async function buildStructure(admin: SignedIn): Promise<{ crmId: string; salesId: string; staffId: string }> {
  const crm = await post(admin, '/api/app', {
    Slug: 'crm',
    DisplayName: 'Acme CRM',
    Description: 'Deals',
    PermissionCatalog: [{ Name: 'deals:read', Description: 'See deals' }, { Name: 'deals:write' }],
  });
  const viewer = await post(admin, '/api/role', { Name: 'Viewer', AppId: crm.Id, Permissions: ['deals:read'] });
  const editor = await post(admin, '/api/role', { Name: 'Editor', AppId: crm.Id, Permissions: ['deals:write', 'deals:read'], Description: 'Edits deals' });
  const auditor = await post(admin, '/api/role', { Name: 'Auditor', AppId: '00000000-0000-4000-8000-000000000001', Permissions: ['auth-log:read'] });
  const staff = await post(admin, '/api/group', { Name: 'Staff', RoleIds: [viewer.Id, auditor.Id] });
  const sales = await post(admin, '/api/group', { Name: 'Sales', Description: 'Sellers', BoundTo: ['crm'], RoleIds: [editor.Id], ParentGroupIds: [staff.Id] });
  await post(admin, '/api/admin/oauth/apis', { Name: 'Orders API', Audience: 'https://api.acme.test/orders', AppId: crm.Id });
  await post(admin, '/api/admin/oauth/scopes', { Name: 'orders.read', DisplayName: 'Read orders', Resources: ['https://api.acme.test/orders'] });
  const web = await post(admin, '/api/admin/oauth/clients', {
    ClientId: 'crm-web',
    DisplayName: 'CRM web',
    ClientType: 'Confidential',
    RedirectUris: ['https://crm.acme.test/callback'],
    GrantTypes: ['authorization_code', 'refresh_token'],
    Scopes: ['openid', 'profile', 'orders.read'],
    AppId: crm.Id,
  });
  expect(web.ClientSecret).toBeTypeOf('string');
  await post(admin, '/api/admin/oauth/clients', {
    ClientId: 'crm-cli',
    DisplayName: 'CRM CLI',
    ClientType: 'Public',
    ConsentType: 'Explicit',
    RedirectUris: ['http://127.0.0.1/callback'],
    GrantTypes: ['authorization_code'],
  });
  await post(admin, '/api/admin/login-providers', {
    Name: 'Corporate SSO',
    Flavor: 'Oidc',
    Oidc: { Authority: 'https://login.acme.test', ClientId: 'gatehouse' },
    Jit: { Enabled: true, DefaultGroupIds: [staff.Id] },
  });
  await post(admin, '/api/service-account', { Name: 'Reporting', Description: 'Weekly report', GroupIds: [sales.Id] });
  return { crmId: crm.Id, salesId: sales.Id, staffId: staff.Id };
}

/** What buildStructure made, as export must spell it (canonical: sorted, defaults filled, no ids). */
export function expectStructure(m: any): void {
  expect(m.Version).toBe(1);
  expect(m.Apps).toEqual([
    {
      Slug: 'crm',
      DisplayName: 'Acme CRM',
      Description: 'Deals',
      PermissionCatalog: [{ Name: 'deals:read', Description: 'See deals' }, { Name: 'deals:write' }],
    },
  ]);
  expect(m.Roles).toEqual([
    { App: 'crm', Name: 'Editor', Description: 'Edits deals', Permissions: ['deals:read', 'deals:write'] },
    { App: 'crm', Name: 'Viewer', Permissions: ['deals:read'] },
    { App: 'gatehouse', Name: 'Auditor', Permissions: ['auth-log:read'] },
  ]);
  expect(m.Groups).toEqual([
    { Name: 'Sales', Description: 'Sellers', BoundTo: ['crm'], Roles: [{ App: 'crm', Name: 'Editor' }], ParentGroups: ['Staff'] },
    {
      Name: 'Staff',
      BoundTo: ['*'],
      Roles: [
        { App: 'crm', Name: 'Viewer' },
        { App: 'gatehouse', Name: 'Auditor' },
      ],
      ParentGroups: [],
    },
  ]);
  expect(m.OAuthApis).toEqual([{ Name: 'Orders API', Audience: 'https://api.acme.test/orders', App: 'crm' }]);
  expect(m.OAuthScopes).toEqual([{ Name: 'orders.read', DisplayName: 'Read orders', Resources: ['https://api.acme.test/orders'] }]);
  expect(m.OAuthClients.map((c: any) => c.ClientId)).toEqual(['crm-cli', 'crm-web']);
  expect(m.OAuthClients[1]).toMatchObject({ ClientType: 'Confidential', App: 'crm', Scopes: ['openid', 'profile', 'orders.read'], ConsentType: 'Explicit' });
  expect(m.LoginProviders).toEqual([
    {
      Name: 'Corporate SSO',
      Flavor: 'Oidc',
      IsActive: true,
      Jit: { Enabled: true, DefaultGroups: ['Staff'] },
      Oidc: { Authority: 'https://login.acme.test', ClientId: 'gatehouse' },
    },
  ]);
  expect(m.ServiceAccounts).toEqual([{ Name: 'Reporting', Description: 'Weekly report', IsActive: true, Groups: ['Sales'] }]);
  // Structure only: no ids, no secrets, no built-ins.
  const text = JSON.stringify(m);
  expect(text).not.toMatch(/"Id"|Secret|[0-9a-f]{8}-[0-9a-f]{4}-/);
  expect(text).not.toContain('Administrators');
  expect(m.Apps.map((a: any) => a.Slug)).not.toContain('gatehouse');
}

export const EMPTY = { Created: [], Updated: [], Deleted: [] };
