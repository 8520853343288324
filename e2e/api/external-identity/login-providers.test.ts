import { beforeAll, describe, expect, it } from 'vitest';
import { generateSpKeyPair } from '../../../lib/domain/external-identity/saml/sp-key-pair';
import { api, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { ADMINISTRATORS, grant, makeUser, signedIn } from '../users/fixtures';

// Login providers (spec 2.5, 4.7; CONTRACT.md "External identity"): flavors, list, get, create,
// update with Flavor immutable, delete, the write-only secret sealed at rest, the read-only built-in
// provider, the public list of entry points, and the no-escalation rule on just-in-time groups.
const PROVIDERS = '/api/admin/login-providers';
const INTERNAL = '00000000-0000-4000-8000-000000000010';

const oidcBody = (extra: Record<string, unknown> = {}) => ({
  Name: 'Corporate IdP',
  Flavor: 'Oidc',
  Oidc: { Authority: 'https://idp.example.com', ClientId: 'gatehouse' },
  ...extra,
});

describe('login providers', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  /** A real certificate for the SAML IdP fields (any self-signed one will do). */
  let certificate: string;

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
    certificate = (await generateSpKeyPair('idp.example.com')).certificatePem;
  });

  it('lists the flavors with their secret field and whether this server runs them', async () => {
    const res = await api(host, 'GET', `${PROVIDERS}/flavors`, { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      { Flavor: 'Oidc', Available: true, SecretField: 'ClientSecret' },
      { Flavor: 'Saml', Available: true },
      { Flavor: 'Ldap', Available: true, SecretField: 'BindPassword' },
      // The test machine has the GSSAPI binding (scripts/test-all.sh builds it).
      { Flavor: 'Kerberos', Available: true, SecretField: 'Keytab' },
    ]);
  });

  it('lists the built-in Internal provider first, read-only', async () => {
    const res = await api(host, 'GET', PROVIDERS, { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items[0]).toMatchObject({ Flavor: 'Internal', IsBuiltIn: true, IsActive: true, HasSecret: false });
    const internalId = res.body.items[0].Id;
    expect(internalId).toBe(INTERNAL);
    expectProblem(await api(host, 'PUT', `${PROVIDERS}/${internalId}`, { cookie: admin.jar, body: oidcBody() }), 400, 'LoginProvider.BuiltIn');
    expectProblem(await api(host, 'DELETE', `${PROVIDERS}/${internalId}`, { cookie: admin.jar }), 400, 'LoginProvider.BuiltIn');
    expectProblem(
      await api(host, 'POST', `${PROVIDERS}/${internalId}/secret`, { cookie: admin.jar, body: { ClientSecret: 'x' } }),
      400,
      'LoginProvider.BuiltIn',
    );
  });

  it('creates an OIDC provider: 201 with the callback URL to give the upstream, no secret yet', async () => {
    const res = await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: oidcBody() });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      Name: 'Corporate IdP',
      Flavor: 'Oidc',
      Kind: 'Oidc',
      IsBuiltIn: false,
      IsActive: true,
      HasSecret: false,
      Jit: { Enabled: true, DefaultGroupIds: [] },
      Oidc: { Authority: 'https://idp.example.com', ClientId: 'gatehouse' },
    });
    expect(res.body.CallbackUrl).toMatch(new RegExp(`^http://${slug}\\.localhost(:\\d+)?/api/account/external-login/finish$`));
    const got = await api(host, 'GET', `${PROVIDERS}/${res.body.Id}`, { cookie: admin.jar });
    expect(got.body).toEqual(res.body);
  });

  it('refuses bodies whose section does not match the flavor, and unknown flavors', async () => {
    expectProblem(await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: { Name: 'x', Flavor: 'Oidc' } }), 400, 'Validation.Failed');
    const mixed = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: oidcBody({ Ldap: { Url: 'ldap://127.0.0.1:389', UserSearchBase: 'dc=x' } }),
    });
    expectProblem(mixed, 400, 'Validation.Failed');
    expect(Object.keys(mixed.body.errors)).toContain('Ldap');
    expectProblem(await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: { ...oidcBody(), Flavor: 'Internal' } }), 400, 'Validation.Failed');
    const noSlug = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: {
        Name: 'SAML',
        Flavor: 'Saml',
        Saml: {
          IdpEntityId: 'urn:x',
          IdpSsoUrl: 'https://idp.example.com/sso',
          IdpCertificate: certificate,
        },
      },
    });
    expectProblem(noSlug, 400, 'Validation.Failed');
    expect(Object.keys(noSlug.body.errors)).toContain('Slug');
    const badFilter = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: { Name: 'Dir', Flavor: 'Ldap', Ldap: { Url: 'ldap://127.0.0.1:389', UserSearchBase: 'dc=x', UserSearchFilter: '(uid=*)' } },
    });
    expectProblem(badFilter, 400, 'Validation.Failed');
  });

  it('keeps the flavor immutable and bumps nothing when an update is refused', async () => {
    const created = await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: oidcBody({ Name: 'Immutable' }) });
    const id = created.body.Id;
    const changed = await api(host, 'PUT', `${PROVIDERS}/${id}`, {
      cookie: admin.jar,
      body: { Name: 'Immutable', Flavor: 'Ldap', Ldap: { Url: 'ldap://127.0.0.1:389', UserSearchBase: 'dc=x' } },
    });
    expectProblem(changed, 400, 'Validation.Failed');
    expect(changed.body.errors.Flavor[0]).toMatch(/cannot change/);
    const updated = await api(host, 'PUT', `${PROVIDERS}/${id}`, {
      cookie: admin.jar,
      body: { Name: 'Renamed', IsActive: false, Oidc: { Authority: 'https://other.example.com', ClientId: 'gh', Scopes: 'openid email' } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      Name: 'Renamed',
      Flavor: 'Oidc',
      IsActive: false,
      Oidc: { Authority: 'https://other.example.com', Scopes: 'openid email' },
    });
    expect(updated.body.UpdatedAt).toBeTruthy();
  });

  it('stores the secret sealed, never answers it, and refuses the wrong field', async () => {
    const created = await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: oidcBody({ Name: 'With secret' }) });
    const id = created.body.Id;
    const secret = `s3cret-${Date.now()}-value`;
    expectProblem(await api(host, 'POST', `${PROVIDERS}/${id}/secret`, { cookie: admin.jar, body: { BindPassword: secret } }), 400, 'Validation.Failed');
    const set = await api(host, 'POST', `${PROVIDERS}/${id}/secret`, { cookie: admin.jar, body: { ClientSecret: secret } });
    expect(set.status, set.text).toBe(204);
    const got = await api(host, 'GET', `${PROVIDERS}/${id}`, { cookie: admin.jar });
    expect(got.body.HasSecret).toBe(true);
    expect(got.text).not.toContain(secret);
    const list = await api(host, 'GET', PROVIDERS, { cookie: admin.jar });
    expect(list.text).not.toContain(secret);
    const [row] = await realmSql<{ secretEncrypted: string; config: string }>(slug, 'SELECT "secretEncrypted", "config" FROM "LoginProvider" WHERE "id" = $1', [
      id,
    ]);
    expect(row.secretEncrypted).toMatch(/^v1\./);
    expect(row.secretEncrypted).not.toContain(secret);
    expect(row.config).not.toContain(secret);
  });

  it('refuses a keytab without a key for the service principal', async () => {
    const created = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: { Name: 'Windows domain', Flavor: 'Kerberos', Kerberos: { Realm: 'EXAMPLE.TEST', ServicePrincipal: `HTTP/${slug}.localhost@EXAMPLE.TEST` } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.NegotiateUrl).toMatch(new RegExp(`/api/account/negotiate/${created.body.Id}$`));
    const notKeytab = await api(host, 'POST', `${PROVIDERS}/${created.body.Id}/secret`, {
      cookie: admin.jar,
      body: { Keytab: Buffer.from('not a keytab').toString('base64') },
    });
    expectProblem(notKeytab, 400, 'Validation.Failed');
    expect(notKeytab.body.errors.Keytab).toBeDefined();
  });

  it('deletes a provider: 204, then 404', async () => {
    const created = await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: oidcBody({ Name: 'Short-lived' }) });
    expect((await api(host, 'DELETE', `${PROVIDERS}/${created.body.Id}`, { cookie: admin.jar })).status).toBe(204);
    expectProblem(await api(host, 'GET', `${PROVIDERS}/${created.body.Id}`, { cookie: admin.jar }), 404, 'LoginProvider.NotFound');
    expectProblem(await api(host, 'DELETE', `${PROVIDERS}/${created.body.Id}`, { cookie: admin.jar }), 404, 'LoginProvider.NotFound');
  });

  it('lists active OIDC and SAML entry points publicly, without settings', async () => {
    const saml = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: {
        Name: 'Campus SAML',
        Flavor: 'Saml',
        Slug: 'campus',
        Saml: {
          IdpEntityId: 'urn:campus',
          IdpSsoUrl: 'https://idp.example.com/sso',
          IdpCertificate: certificate,
        },
      },
    });
    expect(saml.status, saml.text).toBe(201);
    expect(saml.body).toMatchObject({ Kind: 'Saml', Slug: 'campus' });
    expect(saml.body.SpEntityId).toMatch(/\/saml\/campus$/);
    expect(saml.body.AcsUrl).toMatch(/\/saml\/campus\/acs$/);
    const res = await api(host, 'GET', '/api/account/external-logins');
    expect(res.status, res.text).toBe(200);
    const names = res.body.map((p: { Name: string }) => p.Name);
    expect(names).toContain('Campus SAML');
    expect(names).toContain('Corporate IdP');
    expect(names).not.toContain('Renamed'); // inactive
    expect(names).not.toContain('Windows domain'); // Kerberos has no button in this list
    expect(res.body.find((p: { Name: string }) => p.Name === 'Campus SAML')).toEqual({ Id: saml.body.Id, Name: 'Campus SAML', Kind: 'Saml', Slug: 'campus' });
    expect(res.text).not.toMatch(/Authority|ClientId|Certificate/);
    const samlBody = {
      Name: 'Again',
      Flavor: 'Saml',
      Slug: 'campus',
      Saml: { IdpEntityId: 'urn:again', IdpSsoUrl: 'https://idp.example.com/sso', IdpCertificate: certificate },
    };
    expectProblem(await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: samlBody }), 409, 'LoginProvider.SlugTaken');
    // IdP settings that cannot work are refused when saved, not at someone's sign-in.
    const badMetadata = await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: { ...samlBody, Slug: 'other', Saml: { IdpMetadataXml: '<x/>' } } });
    expectProblem(badMetadata, 400, 'Validation.Failed');
    expect(badMetadata.body.errors['Saml.IdpMetadataXml'][0]).toMatch(/not a SAML 2\.0 metadata document/);
    const badCertificate = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: { ...samlBody, Slug: 'other', Saml: { ...samlBody.Saml, IdpCertificate: '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----' } },
    });
    expectProblem(badCertificate, 400, 'Validation.Failed');
  });

  it('answers 403 without login-provider permissions', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    expectProblem(await api(host, 'GET', PROVIDERS, { cookie: jar }), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'POST', PROVIDERS, { cookie: jar, body: oidcBody() }), 403, 'Auth.Forbidden');
  });

  it('no escalation: just-in-time default groups may confer only what the administrator holds', async () => {
    const user = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['login-provider:read', 'login-provider:write'], user.id);
    const jar = await signedIn(host, user);
    const escalate = await api(host, 'POST', PROVIDERS, {
      cookie: jar,
      body: oidcBody({ Name: 'Backdoor', Jit: { Enabled: true, DefaultGroupIds: [ADMINISTRATORS] } }),
    });
    expectProblem(escalate, 403, 'Auth.Forbidden');
    const count = await realmSql<{ n: number }>(slug, `SELECT COUNT(*) AS n FROM "LoginProvider" WHERE "name" = 'Backdoor'`);
    expect(Number(count[0].n)).toBe(0);
    // A provider can vouch for anyone's address: setting one up needs every permission of the realm.
    expectProblem(await api(host, 'POST', PROVIDERS, { cookie: jar, body: oidcBody({ Name: 'Plain' }) }), 403, 'Auth.Forbidden');
    const plain = await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: oidcBody({ Name: 'Plain' }) });
    expect(plain.status, plain.text).toBe(201);
    const pointedElsewhere = await api(host, 'PUT', `${PROVIDERS}/${plain.body.Id}`, {
      cookie: jar,
      body: { Name: 'Plain', Oidc: { Authority: 'https://attacker.example', ClientId: 'gatehouse' } },
    });
    expectProblem(pointedElsewhere, 403, 'Auth.Forbidden');
    const later = await api(host, 'PUT', `${PROVIDERS}/${plain.body.Id}`, {
      cookie: jar,
      body: { Name: 'Plain', Oidc: oidcBody().Oidc, Jit: { Enabled: true, DefaultGroupIds: [ADMINISTRATORS] } },
    });
    expectProblem(later, 403, 'Auth.Forbidden');
    // A script can rewrite anyone who signs in through the provider: setting one needs every permission.
    const script = 'return { Email: "attacker@evil.example" };';
    expectProblem(await api(host, 'POST', PROVIDERS, { cookie: jar, body: oidcBody({ Name: 'Scripted', UserUpdateScript: script }) }), 403, 'Auth.Forbidden');
    const scripted = await api(host, 'PUT', `${PROVIDERS}/${plain.body.Id}`, {
      cookie: jar,
      body: { Name: 'Plain', Oidc: oidcBody().Oidc, UserUpdateScript: script },
    });
    expectProblem(scripted, 403, 'Auth.Forbidden');
    const byAdmin = await api(host, 'PUT', `${PROVIDERS}/${plain.body.Id}`, {
      cookie: admin.jar,
      body: { Name: 'Plain', Oidc: oidcBody().Oidc, UserUpdateScript: script },
    });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    // Keeping the connection and script the administrator set is no escalation: the lesser administrator may rename the provider.
    const kept = await api(host, 'PUT', `${PROVIDERS}/${plain.body.Id}`, {
      cookie: jar,
      body: { Name: 'Renamed plain', Oidc: oidcBody().Oidc, UserUpdateScript: script },
    });
    expect(kept.status, kept.text).toBe(200);
    const missing = await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: oidcBody({ Jit: { DefaultGroupIds: ['no-such-group'] } }) });
    expectProblem(missing, 400, 'Validation.Failed');
    const allowed = await api(host, 'POST', PROVIDERS, { cookie: admin.jar, body: oidcBody({ Name: 'Admins', Jit: { DefaultGroupIds: [ADMINISTRATORS] } }) });
    expect(allowed.status, allowed.text).toBe(201);
    expect(allowed.body.Jit).toEqual({ Enabled: true, DefaultGroupIds: [ADMINISTRATORS] });
  });
});
