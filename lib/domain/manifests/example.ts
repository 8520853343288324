import type { ManifestInput } from './schema';

// The example answered with the JSON Schema (GET .../manifest-schema): a small but realistic realm,
// an App with roles, nested groups, an API with a scope, a web client and a machine client, an OIDC
// provider and a service account. schema.test.ts proves it validates.
export const MANIFEST_EXAMPLE: ManifestInput = {
  Version: 1,
  Realm: { DisplayName: 'Acme', Description: 'Customer-facing identity for Acme.' },
  Settings: { SignIn: { Password: true, Passkeys: true, EmailOtp: true, MagicLink: false, PasswordlessOnly: false } },
  Apps: [
    {
      Slug: 'crm',
      DisplayName: 'Acme CRM',
      Description: 'Customers, deals and invoices.',
      PermissionCatalog: [
        { Name: 'deals:read', Description: 'See deals' },
        { Name: 'deals:write', Description: 'Create and change deals' },
        { Name: 'invoices:approve' },
      ],
    },
  ],
  Roles: [
    { App: 'crm', Name: 'Viewer', Permissions: ['deals:read'] },
    { App: 'crm', Name: 'Editor', Description: 'Works on deals.', Permissions: ['deals:read', 'deals:write'] },
    { App: 'gatehouse', Name: 'User manager', Permissions: ['user:read', 'user:write'] },
  ],
  Groups: [
    { Name: 'Staff', BoundTo: ['*'], Roles: [{ App: 'crm', Name: 'Viewer' }] },
    { Name: 'Sales', Description: 'The sales team.', BoundTo: ['crm'], Roles: [{ App: 'crm', Name: 'Editor' }], ParentGroups: ['Staff'] },
    { Name: 'Help desk', Roles: [{ App: 'gatehouse', Name: 'User manager' }] },
  ],
  OAuthApis: [{ Name: 'Orders API', Audience: 'https://api.acme.example/orders', App: 'crm' }],
  OAuthScopes: [{ Name: 'orders.read', DisplayName: 'Read your orders', Resources: ['https://api.acme.example/orders'] }],
  OAuthClients: [
    {
      ClientId: 'crm-web',
      DisplayName: 'CRM web app',
      ClientType: 'Confidential',
      ConsentType: 'Implicit',
      RedirectUris: ['https://crm.acme.example/callback'],
      PostLogoutRedirectUris: ['https://crm.acme.example/'],
      GrantTypes: ['authorization_code', 'refresh_token'],
      Scopes: ['openid', 'profile', 'email', 'roles', 'offline_access', 'orders.read'],
      App: 'crm',
    },
    { ClientId: 'nightly-sync', DisplayName: 'Nightly sync', ClientType: 'Confidential', GrantTypes: ['client_credentials'], Scopes: ['orders.read'] },
  ],
  LoginProviders: [
    {
      Name: 'Corporate SSO',
      Flavor: 'Oidc',
      Oidc: { Authority: 'https://login.acme.example', ClientId: 'gatehouse', Scopes: 'openid email profile' },
      Jit: { Enabled: true, DefaultGroups: ['Staff'] },
    },
  ],
  ServiceAccounts: [{ Name: 'Reporting', Description: 'Reads deals for the weekly report.', Groups: ['Sales'] }],
};
