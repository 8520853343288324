import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, MAIN_APP_ID } from '../users/fixtures';
import { api, bootstrapAdmin, CookieJar, createRealm, expectProblem, signIn, strongPassword, suite, type ApiResponse, type SignedIn } from '../support/harness';
import { mailCount, mailsTo, waitForMail, type ReceivedMail } from '../support/mailbox';
import { realmSql } from '../support/realm-sql';

// Self-registration (spec 2.5, 4.1; CONTRACT.md "Account bodies"): the posture, the public info,
// the fields policy, the password policy, invite codes, the mailed link that creates the account
// and signs the person in, anti-enumeration and the rate limits.

const HIGH_LIMITS = {
  register: { Source: { Points: 10_000, DurationSeconds: 60 }, Target: { Points: 10_000, DurationSeconds: 60 } },
  'register-verify': { Source: { Points: 10_000, DurationSeconds: 60 } },
  'invite-code-redeem': { Source: { Points: 10_000, DurationSeconds: 60 } },
};

async function patchSettings(host: string, admin: CookieJar, body: unknown): Promise<void> {
  const r = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin, body });
  expect(r.status, r.text).toBe(200);
}

function newEmail(tag = 'reg'): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.test`;
}

function verifyToken(mail: ReceivedMail): string {
  const link = mail.links.find((l) => l.includes('/register/verify?token='));
  if (!link) throw new Error(`no verification link in ${mail.subject}: ${mail.text}`);
  return new URL(link).searchParams.get('token')!;
}

async function registerAndGetToken(host: string, body: Record<string, unknown>): Promise<string> {
  const to = String(body.Email).toLowerCase();
  const before = await mailCount(to);
  const res = await api(host, 'POST', '/api/account/register', { body });
  expect(res.status, res.text).toBe(202);
  return verifyToken(await waitForMail(to, { after: before, subject: /confirm/i }));
}

async function mint(host: string, admin: CookieJar, body: Record<string, unknown> = {}, app = MAIN_APP_ID): Promise<{ Id: string; Code: string }> {
  const r = await api(host, 'POST', `/api/app/${app}/invite-codes`, { cookie: admin, body });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('self-registration', () => {
  let host: string;
  let domain: string;
  let slug: string;
  let admin: SignedIn;

  beforeAll(async () => {
    ({ host, domain, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
    await patchSettings(host, admin.jar, { RateLimits: HIGH_LIMITS });
  });

  it('self-registration-info is anonymous and shows the defaults: registration off', async () => {
    const res = await api(host, 'GET', '/api/account/self-registration-info');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      Posture: 'Off',
      RequireInviteCode: false,
      RegistrationFields: { Email: 'Required', Username: 'Optional', Firstname: 'Optional', Lastname: 'Optional' },
      PasswordPolicy: { MinLength: 10 },
    });
  });

  it.each(['Off', 'JitOnOtp'])('with Posture %s, POST /register is 403 Registration.Disabled and sends nothing', async (posture) => {
    await patchSettings(host, admin.jar, { SelfRegistration: { Posture: posture } });
    const email = newEmail();
    expectProblem(await api(host, 'POST', '/api/account/register', { body: { Email: email } }), 403, 'Registration.Disabled');
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailCount(email)).toBe(0);
  });

  describe('with Posture ExplicitEndpoint', () => {
    beforeAll(async () => {
      await patchSettings(host, admin.jar, { SelfRegistration: { Posture: 'ExplicitEndpoint' }, PasswordPolicy: { MinLength: 12 } });
    });

    it('self-registration-info follows the settings', async () => {
      const res = await api(host, 'GET', '/api/account/self-registration-info');
      expect(res.body).toMatchObject({ Posture: 'ExplicitEndpoint', RequireInviteCode: false, PasswordPolicy: { MinLength: 12 } });
    });

    it('register answers 202 {} and mails a link; the account exists only after verify-email, which signs the person in', async () => {
      const email = newEmail();
      const userName = `reg-${randomBytes(4).toString('hex')}`;
      const password = strongPassword() + 'xyz';
      const res = await api(host, 'POST', '/api/account/register', {
        body: { Email: email, UserName: userName, Firstname: 'Rita', Lastname: 'Reg', Password: password },
      });
      expect(res.status, res.text).toBe(202);
      expect(res.body).toEqual({});
      const mail = await waitForMail(email, { subject: /confirm/i });
      const link = mail.links.find((l) => l.includes('/register/verify'))!;
      expect(link).toMatch(new RegExp(`^http://${domain.replace(/\./g, '\\.')}:${suite().port}/register/verify\\?token=[A-Za-z0-9_-]{43}$`));

      // Nothing exists yet, and the pending registration holds a hash, never the password.
      expectProblem((await signIn(host, userName, password)).res, 401);
      const pending = await realmSql<{ data: string }>(slug, `SELECT "data" FROM "OneTimeSecret" WHERE "purpose" = 'registration' AND "email" = $1`, [email]);
      expect(pending).toHaveLength(1);
      expect(pending[0].data).not.toContain(password);
      expect(pending[0].data).toContain('$argon2id$');

      const jar = new CookieJar();
      const verified = await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: verifyToken(mail) }, cookie: jar });
      expect(verified.status, verified.text).toBe(200);
      expect(verified.body).toMatchObject({ authenticated: true, userName });
      const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ UserName: userName, Email: email, EmailConfirmed: true, Firstname: 'Rita', Lastname: 'Reg' });
      expect(me.body.Id).toBe(verified.body.userId);
      expect((await signIn(host, email, password)).res.status).toBe(200);

      // The link works once.
      expectProblem(await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: verifyToken(mail) } }), 400, 'Token.Used');
    });

    it('unknown and expired links are 400 Token.Invalid and Token.Expired', async () => {
      expectProblem(await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: 'x'.repeat(43) } }), 400, 'Token.Invalid');
      const email = newEmail();
      const token = await registerAndGetToken(host, { Email: email });
      await realmSql(slug, `UPDATE "OneTimeSecret" SET "expiresAt" = "createdAt" WHERE "purpose" = 'registration' AND "email" = $1`, [email]);
      expectProblem(await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: token } }), 400, 'Token.Expired');
      expectProblem(await api(host, 'POST', '/api/account/register/verify-email', { body: {} }), 400, 'Validation.Failed');
    });

    it('without a password the account is passwordless; without a user name the e-mail is the user name', async () => {
      const email = newEmail('NoPw');
      const token = await registerAndGetToken(host, { Email: email });
      const jar = new CookieJar();
      const res = await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: token }, cookie: jar });
      expect(res.status, res.text).toBe(200);
      expect(res.body.userName).toBe(email);
      const [row] = await realmSql<{ passwordHash: string | null }>(slug, 'SELECT "passwordHash" FROM "User" WHERE "id" = $1', [res.body.userId]);
      expect(row.passwordHash).toBeNull();
    });

    it('a continuation on this host is carried forward to verify-email; another is 400 Continuation.Invalid', async () => {
      const redirect = '/connect/authorize?client_id=app&state=xyz';
      const token = await registerAndGetToken(host, { Email: newEmail(), Redirect: redirect });
      const res = await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: token } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.redirect).toBe(redirect);
      for (const bad of ['https://evil.test/', '//evil.test/x']) {
        expectProblem(await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), Redirect: bad } }), 400, 'Continuation.Invalid');
      }
    });

    it('an address that already has an account gets the same 202, and a "you already have an account" mail instead of a link', async () => {
      const existing = await makeUser(host, admin.jar);
      const fresh = newEmail();
      const sameBody = (r: ApiResponse) => ({ status: r.status, body: r.text, type: r.contentType, cookies: r.setCookies, cache: r.headers['cache-control'] });
      const a = await api(host, 'POST', '/api/account/register', { body: { Email: existing.email.toUpperCase(), Password: strongPassword() + 'abc' } });
      const b = await api(host, 'POST', '/api/account/register', { body: { Email: fresh, Password: strongPassword() + 'abc' } });
      expect(a.status, a.text).toBe(202);
      expect(sameBody(a)).toEqual(sameBody(b));
      const note = await waitForMail(existing.email, { subject: /already have an account/i });
      expect(note.links.some((l) => l.includes('/register/verify'))).toBe(false);
      expect(note.links.some((l) => l.endsWith('/login'))).toBe(true);
      await waitForMail(fresh, { subject: /confirm/i });
      const pending = await realmSql(slug, `SELECT "id" FROM "OneTimeSecret" WHERE "purpose" = 'registration' AND "email" = $1`, [existing.email]);
      expect(pending).toEqual([]);
      // The existing account is untouched: its password still works.
      expect((await signIn(host, existing.userName, existing.password)).res.status).toBe(200);
    });

    it('the same address by another spelling as a user name is also "already registered"', async () => {
      const existing = await makeUser(host, admin.jar);
      const res = await api(host, 'POST', '/api/account/register', { body: { Email: existing.email, UserName: `other-${randomBytes(3).toString('hex')}` } });
      expect(res.status).toBe(202);
      expect((await waitForMail(existing.email, { subject: /already/i })).subject).toMatch(/already/i);
    });

    it('a taken user name gets the same 202 as a free one, anonymous or signed in; the mailbox hears it (anti-enumeration)', async () => {
      const existing = await makeUser(host, admin.jar);
      for (const cookie of [undefined, admin.jar]) {
        const to = newEmail();
        const res = await api(host, 'POST', '/api/account/register', { cookie, body: { Email: to, UserName: existing.userName.toUpperCase() } });
        expect(res.status, res.text).toBe(202);
        expect(res.body).toEqual({});
        const note = await waitForMail(to, { subject: /another user name/i });
        expect(note.text).toContain(existing.userName.toUpperCase());
        expect(note.links.some((l) => l.includes('/register/verify'))).toBe(false);
        const pending = await realmSql(slug, `SELECT "id" FROM "OneTimeSecret" WHERE "purpose" = 'registration' AND "email" = $1`, [to]);
        expect(pending).toEqual([]);
      }
    });

    it('a user name that is someone else’s address is 400', async () => {
      const existing = await makeUser(host, admin.jar);
      const res = await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), UserName: existing.email } });
      expectProblem(res, 400, 'Validation.Failed');
      expect(res.body.errors.UserName).toBeDefined();
      // One's own address as the user name is fine.
      const own = newEmail();
      expect((await api(host, 'POST', '/api/account/register', { body: { Email: own, UserName: own } })).status).toBe(202);
    });

    it('the password policy applies to a sent password: 400 User.PasswordTooWeak', async () => {
      const short = await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), Password: 'Abc-12345' } });
      expectProblem(short, 400, 'User.PasswordTooWeak');
      expect(short.body.errors.Password.length).toBeGreaterThan(0);
      expectProblem(await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), Password: 'password1234' } }), 400, 'User.PasswordTooWeak');
    });

    it.each([{}, { Email: 'not-an-address' }, { Email: 42 }, { Email: newEmail(), Firstname: 'x'.repeat(101) }])(
      'malformed %j is 400 Validation.Failed',
      async (body) => {
        expectProblem(await api(host, 'POST', '/api/account/register', { body }), 400, 'Validation.Failed');
      },
    );

    describe('RegistrationFields policy', () => {
      it('Required fields must be sent, Off fields must not be; the answer names the fields', async () => {
        await patchSettings(host, admin.jar, { RegistrationFields: { Username: 'Required', Firstname: 'Required', Lastname: 'Off' } });
        const info = await api(host, 'GET', '/api/account/self-registration-info');
        expect(info.body.RegistrationFields).toEqual({ Email: 'Required', Username: 'Required', Firstname: 'Required', Lastname: 'Off' });

        const missing = await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), Lastname: 'Nope' } });
        expectProblem(missing, 400, 'Validation.Failed');
        expect(Object.keys(missing.body.errors).sort()).toEqual(['Firstname', 'Lastname', 'UserName']);

        const blank = await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), UserName: '  ', Firstname: 'Fay', Lastname: '' } });
        expectProblem(blank, 400, 'Validation.Failed');
        expect(Object.keys(blank.body.errors)).toEqual(['UserName']);

        const ok = await api(host, 'POST', '/api/account/register', {
          body: { Email: newEmail(), userName: `f-${randomBytes(3).toString('hex')}`, firstname: 'Fay' },
        });
        expect(ok.status, ok.text).toBe(202);
      });

      it('Username Off: a sent user name is refused, and the account is named by its address', async () => {
        await patchSettings(host, admin.jar, { RegistrationFields: { Username: 'Off', Firstname: null, Lastname: null } });
        const refused = await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), UserName: 'someone' } });
        expectProblem(refused, 400, 'Validation.Failed');
        expect(Object.keys(refused.body.errors)).toEqual(['UserName']);
        const email = newEmail();
        const res = await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: await registerAndGetToken(host, { Email: email }) } });
        expect(res.body.userName).toBe(email);
        await patchSettings(host, admin.jar, { RegistrationFields: null });
      });
    });

    describe('invite codes', () => {
      beforeAll(async () => {
        await patchSettings(host, admin.jar, { SelfRegistration: { RequireInviteCode: true } });
      });

      it('self-registration-info says a code is required; none is 400 Registration.InviteCodeRequired, a wrong one 400 InviteCodeInvalid', async () => {
        expect((await api(host, 'GET', '/api/account/self-registration-info')).body.RequireInviteCode).toBe(true);
        expectProblem(await api(host, 'POST', '/api/account/register', { body: { Email: newEmail() } }), 400, 'Registration.InviteCodeRequired');
        expectProblem(
          await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), InviteCode: '   ' } }),
          400,
          'Registration.InviteCodeRequired',
        );
        expectProblem(
          await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), InviteCode: 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345' } }),
          400,
          'Registration.InviteCodeInvalid',
        );
        expectProblem(
          await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), InviteCode: 'nonsense' } }),
          400,
          'Registration.InviteCodeInvalid',
        );
      });

      it('a valid code (typed loosely) is accepted, stays Active until the account is created, then is Used by it', async () => {
        const code = await mint(host, admin.jar, { Label: 'for reg' });
        const loose = code.Code.toLowerCase().replace(/-/g, ' ');
        const token = await registerAndGetToken(host, { Email: newEmail(), InviteCode: loose });
        const before = await api(host, 'GET', `/api/app/${MAIN_APP_ID}/invite-codes?status=Active`, { cookie: admin.jar });
        expect(before.body.items.map((c: { Id: string }) => c.Id)).toContain(code.Id);

        const res = await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: token } });
        expect(res.status, res.text).toBe(200);
        const used = await api(host, 'GET', `/api/app/${MAIN_APP_ID}/invite-codes?status=Used`, { cookie: admin.jar });
        const item = used.body.items.find((c: { Id: string }) => c.Id === code.Id);
        expect(item).toMatchObject({ Status: 'Used', UsedByUserId: res.body.userId });
        expect(typeof item.UsedAt).toBe('string');

        // Spent: no one else gets in with it.
        expectProblem(
          await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), InviteCode: code.Code } }),
          400,
          'Registration.InviteCodeInvalid',
        );
      });

      it('two registrations holding one code: the first verified wins, the second creates nothing (400 InviteCodeInvalid)', async () => {
        const code = await mint(host, admin.jar);
        const emailA = newEmail();
        const emailB = newEmail();
        const tokenA = await registerAndGetToken(host, { Email: emailA, InviteCode: code.Code });
        const tokenB = await registerAndGetToken(host, { Email: emailB, InviteCode: code.Code });
        expect((await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: tokenA } })).status).toBe(200);
        expectProblem(await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: tokenB } }), 400, 'Registration.InviteCodeInvalid');
        expect(await realmSql(slug, 'SELECT "id" FROM "User" WHERE "emailNormalized" = $1', [emailB])).toEqual([]);
      });

      it('revoked and expired codes are invalid', async () => {
        const revoked = await mint(host, admin.jar);
        expect((await api(host, 'DELETE', `/api/app/${MAIN_APP_ID}/invite-codes/${revoked.Id}`, { cookie: admin.jar })).status).toBe(204);
        expectProblem(
          await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), InviteCode: revoked.Code } }),
          400,
          'Registration.InviteCodeInvalid',
        );

        const expiring = await mint(host, admin.jar, { ExpiresAt: new Date(Date.now() + 3600_000).toISOString() });
        await realmSql(slug, 'UPDATE "InviteCode" SET "expiresAt" = "createdAt" WHERE "id" = $1', [expiring.Id]);
        expectProblem(
          await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), InviteCode: expiring.Code } }),
          400,
          'Registration.InviteCodeInvalid',
        );
      });

      it("a code of another App does not open the built-in App's registration", async () => {
        const otherApp = crypto.randomUUID();
        await realmSql(slug, 'INSERT INTO "App" ("id", "slug", "displayName", "createdAt") SELECT $1, $2, $3, "createdAt" FROM "App" WHERE "id" = $4', [
          otherApp,
          `app-${randomBytes(3).toString('hex')}`,
          'Other',
          MAIN_APP_ID,
        ]);
        const code = await mint(host, admin.jar, {}, otherApp);
        expectProblem(
          await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), InviteCode: code.Code } }),
          400,
          'Registration.InviteCodeInvalid',
        );
      });

      it('the invite-code check is the same for an address that already has an account (no way around it, no hint)', async () => {
        const existing = await makeUser(host, admin.jar);
        expectProblem(await api(host, 'POST', '/api/account/register', { body: { Email: existing.email } }), 400, 'Registration.InviteCodeRequired');
        const code = await mint(host, admin.jar);
        expect((await api(host, 'POST', '/api/account/register', { body: { Email: existing.email, InviteCode: code.Code } })).status).toBe(202);
        // Not consumed: no account was created.
        const list = await api(host, 'GET', `/api/app/${MAIN_APP_ID}/invite-codes?status=Active`, { cookie: admin.jar });
        expect(list.body.items.map((c: { Id: string }) => c.Id)).toContain(code.Id);
      });

      it('a registration pending when the requirement was switched on without a code cannot complete', async () => {
        await patchSettings(host, admin.jar, { SelfRegistration: { RequireInviteCode: false } });
        const token = await registerAndGetToken(host, { Email: newEmail() });
        await patchSettings(host, admin.jar, { SelfRegistration: { RequireInviteCode: true } });
        expectProblem(await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: token } }), 400, 'Registration.InviteCodeRequired');
      });
    });

    it('switching registration off stops pending registrations too: 403 Registration.Disabled', async () => {
      await patchSettings(host, admin.jar, { SelfRegistration: { RequireInviteCode: false } });
      const token = await registerAndGetToken(host, { Email: newEmail() });
      await patchSettings(host, admin.jar, { SelfRegistration: { Posture: 'Off' } });
      expectProblem(await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: token } }), 403, 'Registration.Disabled');
      await patchSettings(host, admin.jar, { SelfRegistration: { Posture: 'ExplicitEndpoint' } });
      expect((await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: token } })).status).toBe(200);
    });
  });
});

describe('registration rate limits', () => {
  let host: string;
  let admin: SignedIn;

  beforeAll(async () => {
    let slug: string;
    ({ host, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
  });

  it('per source: 429 past the register ceiling, with the spec body', async () => {
    await patchSettings(host, admin.jar, {
      SelfRegistration: { Posture: 'ExplicitEndpoint' },
      RateLimits: { register: { Source: { Points: 2, DurationSeconds: 600 } } },
    });
    for (let i = 0; i < 2; i++) expect((await api(host, 'POST', '/api/account/register', { body: { Email: newEmail() } })).status).toBe(202);
    const res = await api(host, 'POST', '/api/account/register', { body: { Email: newEmail() } });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ error: 'rate_limited', policy: 'register', dimension: 'source' });
  });

  it('per target mailbox: the default of 3 an hour, whatever the spelling of the address; other addresses go on', async () => {
    await patchSettings(host, admin.jar, { RateLimits: { register: { Source: { Points: 1000, DurationSeconds: 600 } } } });
    const email = newEmail();
    for (const spelling of [email, email.toUpperCase(), ` ${email}`])
      expect((await api(host, 'POST', '/api/account/register', { body: { Email: spelling.trim() } })).status).toBe(202);
    const res = await api(host, 'POST', '/api/account/register', { body: { Email: email } });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ policy: 'register', dimension: 'target' });
    expect(await mailsTo(email)).toHaveLength(3);
    expect((await api(host, 'POST', '/api/account/register', { body: { Email: newEmail() } })).status).toBe(202);
  });

  it('invite-code guesses count per source (invite-code-redeem)', async () => {
    await patchSettings(host, admin.jar, {
      SelfRegistration: { RequireInviteCode: true },
      RateLimits: { register: { Source: { Points: 1000, DurationSeconds: 600 } }, 'invite-code-redeem': { Source: { Points: 2, DurationSeconds: 600 } } },
    });
    for (let i = 0; i < 2; i++)
      expectProblem(
        await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), InviteCode: 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345' } }),
        400,
        'Registration.InviteCodeInvalid',
      );
    const res = await api(host, 'POST', '/api/account/register', { body: { Email: newEmail(), InviteCode: 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345' } });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ policy: 'invite-code-redeem', dimension: 'source' });
  });

  it('verify-email counts per source (register-verify)', async () => {
    await patchSettings(host, admin.jar, { RateLimits: { 'register-verify': { Source: { Points: 2, DurationSeconds: 600 } } } });
    for (let i = 0; i < 2; i++) expectProblem(await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: 'nope' } }), 400, 'Token.Invalid');
    const res = await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: 'nope' } });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ policy: 'register-verify', dimension: 'source' });
  });
});
