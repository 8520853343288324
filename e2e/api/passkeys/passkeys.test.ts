import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';
import {
  adminCookie,
  api,
  bootstrapAdmin,
  CookieJar,
  CP_HOST,
  createRealm,
  eventually,
  expectProblem,
  realmDomain,
  signIn,
  suite,
  uniqueSlug,
  type SignedIn,
} from '../support/harness';
import { waitForMail } from '../support/mailbox';
import { realmSql } from '../support/realm-sql';
import { FLAG, SoftAuthenticator } from '../support/soft-authenticator';

// Passkeys over HTTP with a software authenticator (spec 2.1, 4.3, 5.5, 3.6; CONTRACT.md "Account
// bodies"): registration, username and usernameless sign-in, counters and replays, the checks on
// origin, RP ID and user verification, passkeys as a second factor, removal and its last-method
// guard, the realm switch, the PrimaryDomain change and the rate limit.

const HIGH_LIMITS = {
  RateLimits: { 'passkey-login': { Source: { Points: 10_000, DurationSeconds: 60 } }, register: { Source: { Points: 10_000, DurationSeconds: 60 } } },
};

async function patchSettings(host: string, admin: CookieJar, body: unknown): Promise<void> {
  const r = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin, body });
  expect(r.status, r.text).toBe(200);
}

async function addPasskey(host: string, jar: CookieJar, auth: SoftAuthenticator, displayName?: string) {
  const options = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: jar, body: displayName ? { DisplayName: displayName } : {} });
  expect(options.status, options.text).toBe(200);
  const response = auth.create(options.body);
  const res = await api(host, 'POST', '/api/account/passkey/register', { cookie: jar, body: response });
  expect(res.status, res.text).toBe(200);
  return { options: options.body, passkey: res.body, credential: auth.credentials[auth.credentials.length - 1] };
}

async function loginOptions(host: string, body: Record<string, unknown> = {}, cookie?: CookieJar) {
  const res = await api(host, 'POST', '/api/account/passkey/login-options', { body, cookie });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('passkeys', () => {
  let host: string;
  let domain: string;
  let slug: string;
  let admin: SignedIn;
  let user: MadeUser;
  let userJar: CookieJar;
  const auth = new SoftAuthenticator(suite().port);

  beforeAll(async () => {
    ({ host, domain, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
    await patchSettings(host, admin.jar, HIGH_LIMITS);
    user = await makeUser(host, admin.jar);
    userJar = await signedIn(host, user);
  });

  it('managing passkeys needs a session', async () => {
    expectProblem(await api(host, 'GET', '/api/account/passkey'), 401, 'Auth.Unauthenticated');
    expectProblem(await api(host, 'POST', '/api/account/passkey/register-options', { body: {} }), 401, 'Auth.Unauthenticated');
    expectProblem(await api(host, 'DELETE', '/api/account/passkey/some-id'), 401, 'Auth.Unauthenticated');
  });

  it('register-options: RP ID is the primary domain, discoverable credential and user verification required, opaque user handle', async () => {
    const res = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: userJar, body: {} });
    expect(res.status, res.text).toBe(200);
    const o = res.body;
    expect(o.rp.id).toBe(domain);
    expect(o.user.name).toBe(user.userName);
    expect(o.user.id).not.toContain(user.id);
    expect(Buffer.from(o.user.id, 'base64url').toString('utf8')).not.toContain(user.id);
    expect(o.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(o.attestation).toBe('none');
    expect(o.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(o.excludeCredentials).toEqual([]);
    expect(o.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toContain(-7);
    // The user handle is stable: the same on the next call.
    const again = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: userJar, body: {} });
    expect(again.body.user.id).toBe(o.user.id);
    expect(again.body.challenge).not.toBe(o.challenge);
  });

  let first: Awaited<ReturnType<typeof addPasskey>>;

  it('register: the browser response (with DisplayName beside it) answers 200 with the passkey, listed afterwards', async () => {
    const options = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: userJar, body: { DisplayName: 'from options' } });
    const response = auth.create(options.body);
    const res = await api(host, 'POST', '/api/account/passkey/register', { cookie: userJar, body: { ...response, DisplayName: 'My laptop' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ DisplayName: 'My laptop', BackedUp: true, DeviceType: 'multiDevice', Transports: ['internal', 'hybrid'] });
    expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res.body.CreatedAt).toBe('string');
    expect(res.body.LastUsedAt).toBeUndefined();
    expect(res.text).not.toMatch(/publicKey|credentialId|counter/i);
    first = { options: options.body, passkey: res.body, credential: auth.credentials[0] };

    const list = await api(host, 'GET', '/api/account/passkey', { cookie: userJar });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
  });

  it('the DisplayName given to register-options is used when register names none', async () => {
    const second = new SoftAuthenticator(suite().port);
    const { passkey } = await addPasskey(host, userJar, second, 'Named early');
    expect(passkey.DisplayName).toBe('Named early');
    expect((await api(host, 'DELETE', `/api/account/passkey/${passkey.Id}`, { cookie: userJar })).status).toBe(204);
  });

  it('excludeCredentials lists the registered credential; registering it again is 409 Passkey.AlreadyRegistered', async () => {
    const options = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: userJar, body: {} });
    expect(options.body.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([first.credential.id.toString('base64url')]);
    const res = await api(host, 'POST', '/api/account/passkey/register', { cookie: userJar, body: auth.create(options.body, { reuse: first.credential }) });
    expectProblem(res, 409, 'Passkey.AlreadyRegistered');
  });

  it('login with a user name: allowCredentials holds the credential; the assertion signs in with a cookie', async () => {
    const options = await loginOptions(host, { UserName: user.userName.toUpperCase() });
    expect(options.rpId).toBe(domain);
    expect(options.userVerification).toBe('required');
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([first.credential.id.toString('base64url')]);
    const jar = new CookieJar();
    const res = await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(options), cookie: jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ authenticated: true, userId: user.id, userName: user.userName });
    expect(res.setCookies.some((c) => /session=[^;]+;.*HttpOnly/i.test(c))).toBe(true);
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.status).toBe(200);
    expect(me.body.Id).toBe(user.id);
  });

  it('usernameless login: no allowCredentials, the discoverable credential answers; counter and LastUsedAt move on', async () => {
    const options = await loginOptions(host);
    expect(options.allowCredentials ?? []).toEqual([]);
    const before = first.credential.counter;
    const res = await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(options) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.userId).toBe(user.id);
    expect(first.credential.counter).toBe(before + 1);
    const [row] = await realmSql<{ counter: number }>(slug, 'SELECT "counter" FROM "Passkey" WHERE "credentialId" = $1', [
      first.credential.id.toString('base64url'),
    ]);
    expect(Number(row.counter)).toBe(before + 1);
    const list = await api(host, 'GET', '/api/account/passkey', { cookie: userJar });
    expect(typeof list.body[0].LastUsedAt).toBe('string');
  });

  it('a replayed assertion is refused: the ceremony was used (400 Passkey.CeremonyExpired)', async () => {
    const assertion = auth.get(await loginOptions(host));
    expect((await api(host, 'POST', '/api/account/passkey/login', { body: assertion })).status).toBe(200);
    const replay = await api(host, 'POST', '/api/account/passkey/login', { body: assertion });
    expectProblem(replay, 400, 'Passkey.CeremonyExpired');
    expect(replay.setCookies.filter((c) => !/Max-Age=0/i.test(c))).toEqual([]);
  });

  it('an assertion whose counter does not increase is refused (cloned authenticator): 401', async () => {
    const same = first.credential.counter;
    const res = await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(await loginOptions(host), { counter: same }) });
    expectProblem(res, 401, 'Auth.InvalidCredentials');
    const lower = await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(await loginOptions(host), { counter: 1 }) });
    expectProblem(lower, 401, 'Auth.InvalidCredentials');
    // The real authenticator goes on working.
    expect((await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(await loginOptions(host)) })).status).toBe(200);
  });

  it('a subdomain of the primary domain is an accepted origin', async () => {
    const res = await api(host, 'POST', '/api/account/passkey/login', {
      body: auth.get(await loginOptions(host), { origin: `http://app.${domain}:${suite().port}` }),
    });
    expect(res.status, res.text).toBe(200);
  });

  it.each([
    ['another origin', () => ({ origin: `http://evil.localhost:${suite().port}` })],
    ['another port', () => ({ origin: `http://${domain}:1` })],
    ['https instead of http', () => ({ origin: `https://${domain}:${suite().port}` })],
    ['another RP ID', () => ({ rpId: 'evil.localhost' })],
    ['no user verification', () => ({ flags: FLAG.UP | FLAG.BE | FLAG.BS })],
    ['a create response type', () => ({ type: 'webauthn.create' })],
  ])('login with %s is refused with the same 401', async (_label, overrides) => {
    const res = await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(await loginOptions(host), overrides()) });
    expectProblem(res, 401, 'Auth.InvalidCredentials');
    expect(res.body.detail).toBe('The passkey could not be verified.');
  });

  it('a tampered signature is refused', async () => {
    const assertion = auth.get(await loginOptions(host));
    const sig = Buffer.from(assertion.response.signature, 'base64url');
    sig[sig.length - 1] ^= 1;
    assertion.response.signature = sig.toString('base64url');
    expectProblem(await api(host, 'POST', '/api/account/passkey/login', { body: assertion }), 401, 'Auth.InvalidCredentials');
  });

  it.each([
    ['another origin', () => ({ origin: `http://evil.localhost:${suite().port}` })],
    ['another RP ID', () => ({ rpId: 'evil.localhost' })],
    ['no user verification', () => ({ flags: FLAG.UP | FLAG.AT })],
  ])('registration with %s is 400 Passkey.VerificationFailed and stores nothing', async (_label, overrides) => {
    const other = new SoftAuthenticator(suite().port);
    const options = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: userJar, body: {} });
    const res = await api(host, 'POST', '/api/account/passkey/register', { cookie: userJar, body: other.create(options.body, overrides()) });
    expectProblem(res, 400, 'Passkey.VerificationFailed');
    expect((await api(host, 'GET', '/api/account/passkey', { cookie: userJar })).body).toHaveLength(1);
  });

  it('an expired or unknown ceremony is 400 Passkey.CeremonyExpired', async () => {
    const options = await loginOptions(host);
    await realmSql(slug, `UPDATE "OneTimeSecret" SET "expiresAt" = "createdAt" WHERE "purpose" = 'passkey-login' AND "usedAt" IS NULL`);
    expectProblem(await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(options) }), 400, 'Passkey.CeremonyExpired');
    const unknown = auth.get(await loginOptions(host), { challenge: Buffer.alloc(32, 7).toString('base64url') });
    expectProblem(await api(host, 'POST', '/api/account/passkey/login', { body: unknown }), 400, 'Passkey.CeremonyExpired');

    const reg = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: userJar, body: {} });
    await realmSql(slug, `UPDATE "OneTimeSecret" SET "expiresAt" = "createdAt" WHERE "purpose" = 'passkey-registration' AND "usedAt" IS NULL`);
    const res = await api(host, 'POST', '/api/account/passkey/register', { cookie: userJar, body: new SoftAuthenticator(suite().port).create(reg.body) });
    expectProblem(res, 400, 'Passkey.CeremonyExpired');
  });

  it('a registration ceremony is bound to the user who started it', async () => {
    const other = await makeUser(host, admin.jar);
    const otherJar = await signedIn(host, other);
    const options = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: userJar, body: {} });
    const res = await api(host, 'POST', '/api/account/passkey/register', { cookie: otherJar, body: new SoftAuthenticator(suite().port).create(options.body) });
    expectProblem(res, 400, 'Passkey.CeremonyExpired');
  });

  it('login-options for an unknown name look like those of a user without passkeys: one stable decoy, no transports', async () => {
    const nobody = await loginOptions(host, { UserName: 'nobody-at-all' });
    const noPasskeys = await makeUser(host, admin.jar);
    const without = await loginOptions(host, { UserName: noPasskeys.userName });
    const withPasskey = await loginOptions(host, { UserName: user.userName });
    for (const o of [nobody, without, withPasskey]) {
      expect(Object.keys(o).sort()).toEqual(Object.keys(withPasskey).sort());
      expect(o.allowCredentials).toHaveLength(1);
      expect(Object.keys(o.allowCredentials[0]).sort()).toEqual(['id', 'type']);
      expect(o.allowCredentials[0].id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect((await loginOptions(host, { UserName: 'nobody-at-all' })).allowCredentials).toEqual(nobody.allowCredentials);
    expect(nobody.allowCredentials[0].id).not.toBe(without.allowCredentials[0].id);
  });

  it("options for one user name cannot be answered by another user's passkey", async () => {
    const other = await makeUser(host, admin.jar);
    const otherAuth = new SoftAuthenticator(suite().port);
    await addPasskey(host, await signedIn(host, other), otherAuth);
    const options = await loginOptions(host, { UserName: user.userName });
    const res = await api(host, 'POST', '/api/account/passkey/login', { body: otherAuth.get(options, { use: otherAuth.credentials[0] }) });
    expectProblem(res, 401, 'Auth.InvalidCredentials');
    // Usernameless, the same passkey signs its owner in.
    const ok = await api(host, 'POST', '/api/account/passkey/login', { body: otherAuth.get(await loginOptions(host)) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.userId).toBe(other.id);
  });

  it('an unknown credential is refused with the same 401', async () => {
    const stranger = new SoftAuthenticator(suite().port);
    const options = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: userJar, body: {} });
    stranger.create(options.body); // made on the authenticator, never sent to the server
    expectProblem(await api(host, 'POST', '/api/account/passkey/login', { body: stranger.get(await loginOptions(host)) }), 401, 'Auth.InvalidCredentials');
  });

  describe('as a second factor', () => {
    let mfaUser: MadeUser;
    const mfaAuth = new SoftAuthenticator(suite().port);

    beforeAll(async () => {
      mfaUser = await makeUser(host, admin.jar);
      await addPasskey(host, await signedIn(host, mfaUser), mfaAuth);
      // TOTP enrolment belongs to another feature: switch 2FA on directly.
      await realmSql(slug, 'UPDATE "User" SET "twoFactorEnabled" = $1 WHERE "id" = $2', [true, mfaUser.id]);
    });

    it('a password sign-in waits for a second factor that may be the passkey; the assertion finishes it', async () => {
      const { res, jar } = await signIn(host, mfaUser.userName, mfaUser.password);
      expect(res.status, res.text).toBe(200);
      expect(res.body.requiresTwoFactor).toBe(true);
      expect(res.body.mfaMethods).toContain('passkey');
      expect(jar.get('gatehouse_mfa')).toBeTruthy();
      expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(401);

      // The options of the second step name the credentials of the person who passed step one.
      const options = await loginOptions(host, {}, jar);
      expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([mfaAuth.credentials[0].id.toString('base64url')]);
      const done = await api(host, 'POST', '/api/account/passkey/login', { body: mfaAuth.get(options), cookie: jar });
      expect(done.status, done.text).toBe(200);
      expect(done.body).toEqual({ authenticated: true, userId: mfaUser.id, userName: mfaUser.userName });
      expect(jar.get('gatehouse_mfa')).toBeUndefined();
      expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).body.Id).toBe(mfaUser.id);
      const [session] = await realmSql<{ amr: string }>(slug, 'SELECT "amr" FROM "Session" WHERE "userId" = $1 ORDER BY "createdAt" DESC LIMIT 1', [
        mfaUser.id,
      ]);
      expect(JSON.parse(session.amr)).toEqual(['pwd', 'hwk']);
    });

    it("another user's passkey does not finish the pending sign-in (it signs that user in instead)", async () => {
      const { jar } = await signIn(host, mfaUser.userName, mfaUser.password);
      const res = await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(await loginOptions(host)), cookie: jar });
      expect(res.status, res.text).toBe(200);
      expect(res.body.userId).toBe(user.id);
    });

    it('the passkey alone signs a 2FA user in: with user verification it is two factors', async () => {
      const res = await api(host, 'POST', '/api/account/passkey/login', { body: mfaAuth.get(await loginOptions(host, { UserName: mfaUser.email })) });
      expect(res.status, res.text).toBe(200);
      expect(res.body.authenticated).toBe(true);
    });
  });

  describe('removal', () => {
    it("someone else's passkey is 404 Passkey.NotFound; one's own is removed (204) and can no longer sign in", async () => {
      const other = await makeUser(host, admin.jar);
      const otherJar = await signedIn(host, other);
      expectProblem(await api(host, 'DELETE', `/api/account/passkey/${first.passkey.Id}`, { cookie: otherJar }), 404, 'Passkey.NotFound');
      expectProblem(await api(host, 'DELETE', '/api/account/passkey/00000000-0000-4000-8000-00000000dead', { cookie: userJar }), 404, 'Passkey.NotFound');

      // The user has a password, so the only passkey may go.
      expect((await api(host, 'DELETE', `/api/account/passkey/${first.passkey.Id}`, { cookie: userJar })).status).toBe(204);
      expect((await api(host, 'GET', '/api/account/passkey', { cookie: userJar })).body).toEqual([]);
      expectProblem(
        await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(await loginOptions(host), { use: first.credential }) }),
        401,
        'Auth.InvalidCredentials',
      );
      expectProblem(await api(host, 'DELETE', `/api/account/passkey/${first.passkey.Id}`, { cookie: userJar }), 404, 'Passkey.NotFound');
    });

    it('a user without a password keeps at least one passkey: 400 Idp.LastAuthMethod', async () => {
      // A passwordless account, made through self-registration.
      await patchSettings(host, admin.jar, { SelfRegistration: { Posture: 'ExplicitEndpoint' } });
      const email = `pwless-${uniqueSlug('u')}@example.test`;
      expect((await api(host, 'POST', '/api/account/register', { body: { Email: email } })).status).toBe(202);
      const token = new URL((await waitForMail(email, { subject: /confirm/i })).links.find((l) => l.includes('/register/verify'))!).searchParams.get('token');
      const jar = new CookieJar();
      const verified = await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: token }, cookie: jar });
      expect(verified.status, verified.text).toBe(200);

      const a = new SoftAuthenticator(suite().port);
      const one = await addPasskey(host, jar, a, 'one');
      const two = await addPasskey(host, jar, a, 'two');
      expect((await api(host, 'DELETE', `/api/account/passkey/${one.passkey.Id}`, { cookie: jar })).status).toBe(204);
      const last = await api(host, 'DELETE', `/api/account/passkey/${two.passkey.Id}`, { cookie: jar });
      expectProblem(last, 400, 'Idp.LastAuthMethod');
      expect((await api(host, 'GET', '/api/account/passkey', { cookie: jar })).body.map((p: { Id: string }) => p.Id)).toEqual([two.passkey.Id]);

      // Removing the last two at once: one goes, the other is refused.
      const three = await addPasskey(host, jar, a, 'three');
      const both = await Promise.all([two, three].map((p) => api(host, 'DELETE', `/api/account/passkey/${p.passkey.Id}`, { cookie: jar })));
      expect(both.map((r) => r.status).sort()).toEqual([204, 400]);
      expect((await api(host, 'GET', '/api/account/passkey', { cookie: jar })).body).toHaveLength(1);
    });
  });
});

describe('passkeys switched off (SignIn.Passkeys false)', () => {
  it('options, register and login answer 403 SignIn.MethodDisabled; the list still works', async () => {
    const { host, slug } = await createRealm();
    const admin = await bootstrapAdmin(slug);
    const auth = new SoftAuthenticator(suite().port);
    const { options } = await addPasskey(host, admin.jar, auth);
    const pendingReg = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: admin.jar, body: {} });
    const loginOpts = await loginOptions(host);
    await patchSettings(host, admin.jar, { SignIn: { Passkeys: false } });

    expectProblem(await api(host, 'POST', '/api/account/passkey/register-options', { cookie: admin.jar, body: {} }), 403, 'SignIn.MethodDisabled');
    expectProblem(
      await api(host, 'POST', '/api/account/passkey/register', { cookie: admin.jar, body: new SoftAuthenticator(suite().port).create(pendingReg.body) }),
      403,
      'SignIn.MethodDisabled',
    );
    expectProblem(await api(host, 'POST', '/api/account/passkey/login-options', { body: {} }), 403, 'SignIn.MethodDisabled');
    expectProblem(await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(loginOpts) }), 403, 'SignIn.MethodDisabled');
    expect((await api(host, 'GET', '/api/account/passkey', { cookie: admin.jar })).body).toHaveLength(1);
    expect(options.rp.id).toBe(realmDomain(slug));

    await patchSettings(host, admin.jar, { SignIn: { Passkeys: null } });
    expect((await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(await loginOptions(host)) })).status).toBe(200);
  });
});

describe('passkey rate limit', () => {
  it('login-options and login count against the passkey-login source ceiling: 429 with the spec body', async () => {
    const { host, slug } = await createRealm();
    const admin = await bootstrapAdmin(slug);
    await patchSettings(host, admin.jar, { RateLimits: { 'passkey-login': { Source: { Points: 3, DurationSeconds: 600 } } } });
    for (let i = 0; i < 3; i++) expect((await api(host, 'POST', '/api/account/passkey/login-options', { body: {} })).status).toBe(200);
    const res = await api(host, 'POST', '/api/account/passkey/login-options', { body: {} });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ error: 'rate_limited', policy: 'passkey-login', dimension: 'source' });
    expect((await api(host, 'POST', '/api/account/passkey/login', { body: {} })).status).toBe(429);
  });
});

describe('PrimaryDomain change (spec 2.1)', () => {
  it('deletes every passkey of the realm: none listed, none signs in, not even after switching back', async () => {
    const slug = uniqueSlug();
    const a = realmDomain(slug);
    const b = `alt-${slug}.localhost`;
    const { host } = await createRealm({ Slug: slug, Domains: [a, b] });
    const hostB = `${b}:${suite().port}`;
    const admin = await bootstrapAdmin(slug);
    const auth = new SoftAuthenticator(suite().port);
    await addPasskey(host, admin.jar, auth);
    expect((await api(host, 'GET', '/api/account/passkey', { cookie: admin.jar })).body).toHaveLength(1);

    const patch = (PrimaryDomain: string) => api(CP_HOST, 'PATCH', `/api/admin/realms/${slug}`, { cookie: adminCookie(), body: { PrimaryDomain } });
    expect((await patch(b)).status).toBe(200);
    await eventually(async () => {
      const rows = await realmSql(slug, 'SELECT "id" FROM "Passkey"');
      expect(rows).toEqual([]);
    });
    const jarB = (await signIn(hostB, admin.userName, admin.password)).jar;
    expect((await api(hostB, 'GET', '/api/account/passkey', { cookie: jarB })).body).toEqual([]);
    // New options use the new RP ID; the old credential is for the old one and unknown now.
    const options = await loginOptions(hostB);
    expect(options.rpId).toBe(b);
    const old = auth.credentials[0];
    expectProblem(
      await api(hostB, 'POST', '/api/account/passkey/login', { body: auth.get(options, { use: old, rpId: a, origin: `http://${b}:${suite().port}` }) }),
      401,
      'Auth.InvalidCredentials',
    );

    // A passkey made for the new domain works, and survives.
    const fresh = new SoftAuthenticator(suite().port);
    await addPasskey(hostB, jarB, fresh);
    expect((await api(hostB, 'POST', '/api/account/passkey/login', { body: fresh.get(await loginOptions(hostB)) })).status).toBe(200);

    expect((await patch(a)).status).toBe(200);
    await eventually(async () => expect(await realmSql(slug, 'SELECT "id" FROM "Passkey"')).toEqual([]));
    expect((await api(host, 'GET', '/api/account/passkey', { cookie: admin.jar })).body).toEqual([]);
    expectProblem(
      await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(await loginOptions(host), { use: old }) }),
      401,
      'Auth.InvalidCredentials',
    );
  });
});
