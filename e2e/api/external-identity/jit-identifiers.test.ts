import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAtUpstream, startOidcUpstream, type OidcUpstream, type UpstreamUser } from '../../shared/peers/oidc-upstream';
import { api, CookieJar, expectProblem, realmWithAdmin, signIn, strongPassword, suite, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { makeUser } from '../users/fixtures';

// An upstream cannot give a person created just in time (or changed by a UserUpdateScript) an
// identifier of somebody else here (issue 30 item 5): an upstream that asserted the administrator's
// e-mail as preferred_username made a user named after it, and the administrator's e-mail +
// password sign-in then answered 401. JIT applies the admin API's field rules and the
// identity-uniqueness rule: a taken or invalid user name falls back to a free one, an address that
// fails the rules (a trailing NUL) or that someone holds is refused, and a script's clashing change
// is skipped.
const PROVIDERS = '/api/admin/login-providers';

describe('JIT and scripted identifiers never take another person’s', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let upstream: OidcUpstream;
  const users: UpstreamUser[] = [];
  const clientId = `gatehouse-${randomBytes(3).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');

  async function provider(body: Record<string, unknown>): Promise<string> {
    const res = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: { Name: `Upstream-${randomBytes(2).toString('hex')}`, Flavor: 'Oidc', Oidc: { Authority: upstream.issuer, ClientId: clientId }, ...body },
    });
    expect(res.status, res.text).toBe(201);
    const secret = await api(host, 'POST', `${PROVIDERS}/${res.body.Id}/secret`, { cookie: admin.jar, body: { ClientSecret: clientSecret } });
    expect(secret.status, secret.text).toBe(204);
    return res.body.Id;
  }

  /** A person at the upstream asserting `login` as preferred_username and `email` as a verified address. */
  function upstreamUser(login: string, email: string): UpstreamUser {
    const tag = randomBytes(4).toString('hex');
    const user = { sub: `u-${tag}`, login, password: `pw-${tag}`, email, email_verified: true, given_name: 'Mal', family_name: 'Lory' };
    users.push(user);
    return user;
  }

  /** start → the upstream's login → our callback, as a fresh browser; answers the callback and the browser. */
  async function signInThroughUpstream(id: string, user: UpstreamUser) {
    const jar = new CookieJar();
    const start = await api(host, 'GET', `/api/account/external-login/${id}/start?returnUrl=/account`, { cookie: jar });
    expect(start.status, start.text).toBe(302);
    const callback = new URL(await loginAtUpstream(new URL(start.headers.location!).href, user.login, user.password));
    const finish = await api(host, 'GET', callback.pathname + callback.search, { cookie: jar });
    return { finish, jar };
  }

  const me = async (jar: CookieJar) => (await api(host, 'GET', '/api/account/me', { cookie: jar })).body;

  async function expectAdminSignsInByEmail(): Promise<void> {
    const { res, jar } = await signIn(host, admin.email, admin.password);
    expect(res.status, res.text).toBe(200);
    expect((await me(jar)).Id).toBe(admin.userId);
  }

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
    const redirectUri = `http://${slug}.localhost:${suite().port}/api/account/external-login/finish`;
    upstream = await startOidcUpstream({ clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri] }], users });
  }, 60_000);

  afterAll(async () => {
    await upstream?.stop();
  });

  it("preferred_username equal to the administrator's e-mail: the new person gets a free name, the administrator still signs in by e-mail", async () => {
    const id = await provider({ Jit: { Enabled: true } });
    const local = `mallory${randomBytes(2).toString('hex')}`;
    const mallory = upstreamUser(admin.email, `${local}@evil.test`);
    const { finish, jar } = await signInThroughUpstream(id, mallory);
    expect(finish.status, finish.text).toBe(302);
    expect(finish.headers.location).toBe('/account');
    const created = await me(jar);
    expect(created.Email).toBe(mallory.email);
    expect(created.UserName.toLowerCase()).not.toBe(admin.email.toLowerCase());
    expect(created.UserName).toBe(local);
    await expectAdminSignsInByEmail();
    // Upper case changes nothing: the stored copies compare without regard to case.
    const shouting = upstreamUser(admin.email.toUpperCase(), `${local}-2@evil.test`);
    const second = await signInThroughUpstream(id, shouting);
    expect(second.finish.status, second.finish.text).toBe(302);
    expect((await me(second.jar)).UserName.toLowerCase()).not.toBe(admin.email.toLowerCase());
    await expectAdminSignsInByEmail();
  });

  it("preferred_username equal to another person's user name, and an address-local part that is taken too: a suffixed free name", async () => {
    const id = await provider({ Jit: { Enabled: true } });
    const other = await makeUser(host, admin.jar);
    const mallory = upstreamUser(other.userName, `${other.userName}@evil.test`);
    const { finish, jar } = await signInThroughUpstream(id, mallory);
    expect(finish.status, finish.text).toBe(302);
    expect((await me(jar)).UserName).toMatch(new RegExp(`^${other.userName}-.+`));
    const { res } = await signIn(host, other.userName, other.password);
    expect(res.status, res.text).toBe(200);
  });

  it('an upstream e-mail with a trailing NUL is refused; nobody is created', async () => {
    const id = await provider({ Jit: { Enabled: true } });
    const tag = randomBytes(3).toString('hex');
    const nul = upstreamUser(`nul-${tag}`, `nul-${tag}@upstream.test\u0000`);
    const { finish, jar } = await signInThroughUpstream(id, nul);
    expect(finish.headers.location).toBe('/login?error=external-refused');
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(401);
    const rows = await realmSql<{ n: number }>(slug, 'SELECT COUNT(*) AS n FROM "User" WHERE "emailNormalized" LIKE $1', [`nul-${tag}%`]);
    expect(Number(rows[0].n)).toBe(0);
  });

  it("an upstream e-mail that is another person's user name is refused; nobody is created", async () => {
    const id = await provider({ Jit: { Enabled: true } });
    const tag = randomBytes(3).toString('hex');
    const holder = await makeUser(host, admin.jar, { UserName: `carol-${tag}@corp.test`, Email: `carol-${tag}@elsewhere.test` });
    const mallory = upstreamUser(`m-${tag}`, holder.userName);
    const { finish } = await signInThroughUpstream(id, mallory);
    expect(finish.headers.location).toBe('/login?error=external-refused');
    const rows = await realmSql<{ n: number }>(slug, 'SELECT COUNT(*) AS n FROM "User" WHERE "emailNormalized" = $1', [`carol-${tag}@corp.test`]);
    expect(Number(rows[0].n)).toBe(0);
    const { res } = await signIn(host, `carol-${tag}@corp.test`, holder.password);
    expect(res.status, res.text).toBe(200);
  });

  it("a UserUpdateScript that sets the administrator's e-mail as user name: skipped on JIT (a free name) and on later sign-ins", async () => {
    const id = await provider({ Jit: { Enabled: true }, UserUpdateScript: `return { UserName: '${admin.email}', Acronym: 'SCR' };` });
    const tag = randomBytes(3).toString('hex');
    const scripted = upstreamUser(`s-${tag}`, `s-${tag}@upstream.test`);
    const first = await signInThroughUpstream(id, scripted);
    expect(first.finish.status, first.finish.text).toBe(302);
    const created = await me(first.jar);
    expect(created.UserName.toLowerCase()).not.toBe(admin.email.toLowerCase());
    expect(created.Acronym).toBe('SCR');
    const again = await signInThroughUpstream(id, scripted);
    expect(again.finish.status, again.finish.text).toBe(302);
    expect((await me(again.jar)).UserName).toBe(created.UserName);
    await expectAdminSignsInByEmail();
  });

  it('the admin API refuses an e-mail or user name with a control character (400), and a name equal to another person’s e-mail (409)', async () => {
    const tag = randomBytes(3).toString('hex');
    const nulEmail = await api(host, 'POST', '/api/user', {
      cookie: admin.jar,
      body: { UserName: `n-${tag}`, Email: `n-${tag}@example.test\u0000`, Password: strongPassword() },
    });
    expectProblem(nulEmail, 400, 'Validation.Failed');
    const nulName = await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: `n-${tag}\u0000`, Email: `n-${tag}@example.test` } });
    expectProblem(nulName, 400, 'Validation.Failed');
    expectProblem(
      await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: admin.email, Email: `n-${tag}@example.test` } }),
      409,
      'User.UserNameTaken',
    );
  });
});
