import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, api, CookieJar, CP_HOST, expectProblem, hostHeader, realmWithAdmin, uniqueSlug, type SignedIn } from '../support/harness';
import { mailCount, waitForMail, type ReceivedMail } from '../support/mailbox';

// An App's address (spec 2.1 ApplicationDomains, 4.7 "Applications" Settings; docs/apps.md):
// Settings.Origin.Subdomain `s` routes `s.<realm PrimaryDomain>` to the realm and puts requests in
// the App's context, where its Settings sections override the realm's: /api/app-info and the hosted
// pages show its Branding, registration follows its SelfRegistration and RegistrationFields (also
// JitOnOtp by e-mail code), mail carries its EmailBranding. Clearing the subdomain, deleting the App
// or moving the realm's primary domain moves or removes the address.

const LIMITS = {
  register: { Source: { Points: 10_000, DurationSeconds: 60 }, Target: { Points: 10_000, DurationSeconds: 60 } },
  'register-verify': { Source: { Points: 10_000, DurationSeconds: 60 } },
  'email-otp-request': { Source: { Points: 10_000, DurationSeconds: 60 }, Target: { Points: 10_000, DurationSeconds: 60 } },
  'email-otp-login': { Source: { Points: 10_000, DurationSeconds: 60 }, Target: { Points: 10_000, DurationSeconds: 60 } },
};
const newEmail = (t = 'route') => `${t}-${randomBytes(5).toString('hex')}@example.test`;
const verifyToken = (mail: ReceivedMail) => new URL(mail.links.find((l) => l.includes('/register/verify?token='))!).searchParams.get('token')!;

describe('an App’s subdomain', () => {
  let host: string;
  let domain: string;
  let slug: string;
  let admin: SignedIn;
  let app: any;
  let shopHost: string;

  const settings = {
    Origin: { Subdomain: 'shop' },
    Branding: { ProductName: 'Shop Online', PrimaryColor: '#aa0011' },
    EmailBranding: { SenderName: 'Shop Team', FooterText: 'Shop Ltd, 1 Market Road' },
    SelfRegistration: { Posture: 'ExplicitEndpoint' },
    RegistrationFields: { Firstname: 'Required' },
  };
  const put = (s: unknown) =>
    api(host, 'PUT', `/api/app/${app.Id}`, { cookie: admin.jar, body: { Slug: app.Slug, DisplayName: app.DisplayName, PermissionCatalog: [], Settings: s } });

  beforeAll(async () => {
    ({ host, domain, slug, admin } = await realmWithAdmin());
    const patched = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { RateLimits: LIMITS } });
    expect(patched.status, patched.text).toBe(200);
    const res = await api(host, 'POST', '/api/app', {
      cookie: admin.jar,
      body: { Slug: `shop-${randomBytes(3).toString('hex')}`, DisplayName: 'Shop', PermissionCatalog: [], Settings: settings },
    });
    expect(res.status, res.text).toBe(201);
    app = res.body;
    expect(app.Host).toBe(`shop.${domain}`);
    shopHost = hostHeader(`shop.${domain}`);
  });

  it('routes the host to the realm; the realm lists it in ApplicationDomains, not in Domains', async () => {
    const realm = await api(CP_HOST, 'GET', `/api/admin/realms/${slug}`, { cookie: adminCookie() });
    expect(realm.body.ApplicationDomains).toEqual({ [`shop.${domain}`]: app.Id });
    expect(realm.body.Domains).toEqual([domain]);
  });

  it('/api/app-info answers the App’s view on its host and the realm’s elsewhere', async () => {
    const onApp = await api(shopHost, 'GET', '/api/app-info');
    expect(onApp.status, onApp.text).toBe(200);
    expect(onApp.body).toMatchObject({
      Realm: slug,
      App: { Id: app.Id, Slug: app.Slug, DisplayName: 'Shop' },
      Branding: { ProductName: 'Shop Online', PrimaryColor: '#aa0011' },
      SelfRegistration: { Posture: 'ExplicitEndpoint', RequireInviteCode: false },
      RegistrationFields: { Email: 'Required', Username: 'Optional', Firstname: 'Required', Lastname: 'Optional' },
    });
    const onRealm = await api(host, 'GET', '/api/app-info');
    expect(onRealm.body).toMatchObject({
      App: { Slug: 'gatehouse' },
      Branding: { PrimaryColor: '#1f4f8f' },
      SelfRegistration: { Posture: 'Off' },
      RegistrationFields: { Firstname: 'Optional' },
    });
    expect(onRealm.body.Branding.ProductName).not.toBe('Shop Online');
    const info = await api(shopHost, 'GET', '/api/account/self-registration-info');
    expect(info.body).toMatchObject({ Posture: 'ExplicitEndpoint', RegistrationFields: { Firstname: 'Required' } });
  });

  it('the hosted sign-in page on the App’s host shows its branding', async () => {
    const page = await api(shopHost, 'GET', '/login');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Shop Online');
    expect(page.text).toContain('#aa0011');
    const realmPage = await api(host, 'GET', '/login');
    expect(realmPage.status).toBe(200);
    expect(realmPage.text).not.toContain('Shop Online');
  }, 240_000); // the development server compiles the page on first use

  it('registration follows the App’s posture and fields, and its mail carries the App’s EmailBranding', async () => {
    expectProblem(await api(host, 'POST', '/api/account/register', { body: { Email: newEmail() } }), 403, 'Registration.Disabled');
    const missing = await api(shopHost, 'POST', '/api/account/register', { body: { Email: newEmail() } });
    expectProblem(missing, 400, 'Validation.Failed');
    expect(missing.body.errors.Firstname).toBeDefined();

    const email = newEmail();
    const res = await api(shopHost, 'POST', '/api/account/register', { body: { Email: email, Firstname: 'Sam' } });
    expect(res.status, res.text).toBe(202);
    const mail = await waitForMail(email, { subject: /confirm/i });
    expect(mail.from).toBe(`"Shop Team" <no-reply@${domain}>`);
    expect(mail.text).toContain('Shop Ltd, 1 Market Road');
    expect(mail.html).toContain('#aa0011');
    // The link opens on the realm's primary domain; the App the registration was for still decides.
    const jar = new CookieJar();
    const verified = await api(host, 'POST', '/api/account/register/verify-email', { body: { Token: verifyToken(mail) }, cookie: jar });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ authenticated: true, userName: email });
  });

  it('an App posture JitOnOtp lets an unknown address sign up by e-mail code on its host only', async () => {
    const put1 = await put({ ...settings, SelfRegistration: { Posture: 'JitOnOtp' } });
    expect(put1.status, put1.text).toBe(200);
    const elsewhere = newEmail('jit');
    expect((await api(host, 'POST', '/api/account/email-otp/login/request', { body: { Email: elsewhere } })).status).toBe(200);

    const email = newEmail('jit');
    const before = await mailCount(email);
    expect((await api(shopHost, 'POST', '/api/account/email-otp/login/request', { body: { Email: email } })).status).toBe(200);
    const mail = await waitForMail(email, { after: before, subject: /sign-in code/ });
    expect(mail.from).toBe(`"Shop Team" <no-reply@${domain}>`);
    const login = await api(shopHost, 'POST', '/api/account/email-otp/login', { body: { Email: email, Code: mail.code } });
    expect(login.status, login.text).toBe(200);
    expect(login.body).toMatchObject({ authenticated: true, userName: email });
    expect(await mailCount(elsewhere)).toBe(0);
  });

  it('a change takes effect at once: the App’s EmailBranding removed, mail carries the realm’s branding', async () => {
    expect((await put({ ...settings, EmailBranding: null })).status).toBe(200);
    const email = newEmail();
    const res = await api(shopHost, 'POST', '/api/account/register', { body: { Email: email, Firstname: 'Ann' } });
    expect(res.status, res.text).toBe(202);
    const mail = await waitForMail(email, { subject: /confirm/i });
    // The App's Branding (its product name) is the mail's base when it has no EmailBranding.
    expect(mail.from).toBe(`"Shop Online" <no-reply@${domain}>`);
    expect(mail.text).not.toContain('Shop Ltd');
  });

  it('clearing the subdomain removes the route: that host answers 404', async () => {
    const cleared = await put({ Branding: settings.Branding });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.Host).toBeUndefined();
    expectProblem(await api(shopHost, 'GET', '/api/app-info'), 404);
    const realm = await api(CP_HOST, 'GET', `/api/admin/realms/${slug}`, { cookie: adminCookie() });
    expect(realm.body.ApplicationDomains).toEqual({});
  });

  it('the address follows the realm’s primary domain; deleting the App removes it', async () => {
    expect((await put(settings)).status).toBe(200);
    expect((await api(shopHost, 'GET', '/api/app-info')).body.App.Id).toBe(app.Id);
    const next = `${uniqueSlug('moved')}.localhost`;
    const moved = await api(CP_HOST, 'PATCH', `/api/admin/realms/${slug}`, { cookie: adminCookie(), body: { Domains: [domain, next], PrimaryDomain: next } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.ApplicationDomains).toEqual({ [`shop.${next}`]: app.Id });
    expect((await api(hostHeader(`shop.${next}`), 'GET', '/api/app-info')).body.App.Id).toBe(app.Id);
    expectProblem(await api(shopHost, 'GET', '/api/app-info'), 404);
    expect((await api(host, 'GET', `/api/app/${app.Id}`, { cookie: admin.jar })).body.Host).toBe(`shop.${next}`);

    expect((await api(host, 'DELETE', `/api/app/${app.Id}`, { cookie: admin.jar })).status).toBe(204);
    expectProblem(await api(hostHeader(`shop.${next}`), 'GET', '/api/app-info'), 404);
  });
});
