import { beforeAll, describe, expect, it } from 'vitest';
import { api, CookieJar, realmWithAdmin, type SignedIn } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { enrolTotp, passwordStep, patchSettings, ROOMY_SOURCE_LIMITS } from '../mfa/fixtures';
import type { TotpDevice } from '../../shared/totp-device';

// The second step offers exactly the second factors the account has and the first factor leaves to
// prove (issue 8 item 17), in the JSON outcome (`mfaMethods`) and on the hosted page, and each one
// offered works: after a magic link no e-mail code (the same mailbox twice) and no passkey for a
// person without one; after a password, the e-mail code too.
let host: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  await patchSettings(host, admin.jar, { SignIn: { MagicLink: true, EmailOtp: true, Passkeys: true }, RateLimits: ROOMY_SOURCE_LIMITS });
});

const BROWSER = { accept: 'text/html,application/xhtml+xml' };
const EMAIL_SWITCH = /E-mail me a code/;
const PASSKEY_SWITCH = /Use a passkey/;

async function totpUser(): Promise<{ user: MadeUser; device: TotpDevice }> {
  const user = await makeUser(host, admin.jar);
  return { user, device: await enrolTotp(host, await signedIn(host, user)) };
}

async function mailedLinkPath(user: MadeUser): Promise<string> {
  const before = await mailCount(user.email);
  expect((await api(host, 'POST', '/api/account/magic-link/request', { body: { Email: user.email } })).status).toBe(200);
  const mail = await waitForMail(user.email, { after: before, subject: /Sign in/ });
  const link = new URL(mail.links.find((l) => l.includes('/api/account/magic-link/login'))!);
  return link.pathname + link.search;
}

/** The hosted step-two page as the browser holding `jar` gets it. */
async function stepTwoPage(jar: CookieJar): Promise<string> {
  const res = await api(host, 'GET', '/login?step=mfa', { cookie: jar, headers: BROWSER });
  expect(res.status).toBe(200);
  return res.text;
}

describe('after a magic link', () => {
  it('the outcome offers only the authenticator, and so does the hosted page', async () => {
    const { user } = await totpUser();
    const json = await api(host, 'GET', await mailedLinkPath(user), { headers: { accept: 'application/json' } });
    expect(json.body, json.text).toMatchObject({ requiresTwoFactor: true, mfaMethods: ['totp'] });

    const jar = new CookieJar();
    const landing = await api(host, 'GET', await mailedLinkPath(user), { cookie: jar, headers: BROWSER });
    expect(landing.status).toBe(302);
    expect(landing.headers.location).toMatch(/^\/login\?step=mfa/);
    const html = await stepTwoPage(jar);
    expect(html).toMatch(/authenticator app/);
    expect(html).not.toMatch(EMAIL_SWITCH);
    expect(html).not.toMatch(PASSKEY_SWITCH);
  });

  it('the authenticator code it offers finishes the sign-in', async () => {
    const { user, device } = await totpUser();
    const jar = new CookieJar();
    await api(host, 'GET', await mailedLinkPath(user), { cookie: jar, headers: BROWSER });
    const res = await api(host, 'POST', '/api/account/mfa/login', { cookie: jar, body: { Code: await device.code() } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.authenticated).toBe(true);
  });
});

describe('after a password', () => {
  it('offers the e-mail code besides the authenticator, on the page too, and the code works', async () => {
    const { user } = await totpUser();
    const { res, jar } = await passwordStep(host, user.userName, user.password);
    expect(res.body).toMatchObject({ requiresTwoFactor: true, mfaMethods: ['totp', 'email-otp'] });
    const html = await stepTwoPage(jar);
    expect(html).toMatch(EMAIL_SWITCH);
    expect(html).not.toMatch(PASSKEY_SWITCH);

    const before = await mailCount(user.email);
    expect((await api(host, 'POST', '/api/account/email-otp/login/request', { cookie: jar, body: {} })).status).toBe(200);
    const mail = await waitForMail(user.email, { after: before, subject: /code/i });
    const done = await api(host, 'POST', '/api/account/email-otp/login', { cookie: jar, body: { Code: mail.code } });
    expect(done.status, done.text).toBe(200);
    expect(done.body.authenticated).toBe(true);
  });
});

describe('without a pending sign-in', () => {
  it('the step-two page offers no second factor and shows the first step', async () => {
    const html = await stepTwoPage(new CookieJar());
    expect(html).not.toMatch(/Verification code/);
  });
});
