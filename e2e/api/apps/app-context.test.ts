import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectRateLimited, setRateLimits } from '../passwords/links';
import { api, bootstrapAdmin, createRealm, hostHeader, type SignedIn } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { makeUser } from '../users/fixtures';

// The App of a request (spec 2.1 ApplicationDomains; lib/domain/apps/request-app.ts): a Host the
// realm routes to an App puts the request in that App's context, any other Host in the built-in
// App's. Two things follow: the `app` rate-limit dimension (spec 7, 8) and the App's EmailBranding
// override of the realm's mail branding (spec 4.7 "Applications" Settings). App management has no
// write endpoints yet, so the second App, its settings and its host route are written directly.

describe('the App of a request', () => {
  let slug: string;
  let host: string;
  let shopHost: string;
  let shopApp: string;
  let shopSlug: string;
  let admin: SignedIn;
  const putShop = (settings: unknown) =>
    api(host, 'PUT', `/api/app/${shopApp}`, { cookie: admin.jar, body: { Slug: shopSlug, DisplayName: 'Shop', PermissionCatalog: [], Settings: settings } });

  beforeAll(async () => {
    const realm = await createRealm();
    ({ slug, host } = realm);
    admin = await bootstrapAdmin(slug);
    shopSlug = `shop-${randomBytes(3).toString('hex')}`;
    const created = await api(host, 'POST', '/api/app', {
      cookie: admin.jar,
      body: { Slug: shopSlug, DisplayName: 'Shop', PermissionCatalog: [], Settings: { Origin: { Subdomain: 'shop' } } },
    });
    expect(created.status, created.text).toBe(201);
    shopApp = created.body.Id;
    shopHost = hostHeader(created.body.Host);
  });

  describe('rate limit dimension app', () => {
    const forgot = (h: string) => api(h, 'POST', '/api/account/forgot-password', { body: { Email: `nobody-${randomBytes(4).toString('hex')}@example.test` } });

    it('counts per App: past the App ceiling 429 (app); the built-in App (any other Host) has its own counter', async () => {
      await setRateLimits(host, admin.jar, { 'forgot-password': { Source: { Points: 1000, DurationSeconds: 600 }, App: { Points: 3, DurationSeconds: 600 } } });
      for (let i = 0; i < 3; i++) expect((await forgot(shopHost)).status).toBe(200);
      expectRateLimited(await forgot(shopHost), 'forgot-password', 'app');
      for (let i = 0; i < 3; i++) expect((await forgot(host)).status).toBe(200);
      expectRateLimited(await forgot(host), 'forgot-password', 'app');
    });

    it('a source already past its own ceiling does not use up the App allowance', async () => {
      await setRateLimits(host, admin.jar, { 'magic-link-request': { Source: { Points: 1, DurationSeconds: 600 }, App: { Points: 3, DurationSeconds: 600 } } });
      await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { SignIn: { MagicLink: true } } });
      const request = () => api(shopHost, 'POST', '/api/account/magic-link/request', { body: { Email: 'nobody@example.test' } });
      expect((await request()).status).toBe(200);
      for (let i = 0; i < 5; i++) expectRateLimited(await request(), 'magic-link-request', 'source');
      // Only the one accepted request counted against the App: raising the source ceiling shows it.
      await setRateLimits(host, admin.jar, {
        'magic-link-request': { Source: { Points: 1000, DurationSeconds: 600 }, App: { Points: 3, DurationSeconds: 600 } },
      });
      expect((await request()).status).toBe(200);
      expect((await request()).status).toBe(200);
      expectRateLimited(await request(), 'magic-link-request', 'app');
    });
  });

  describe('EmailBranding', () => {
    const reset = async (h: string, email: string) => {
      const before = await mailCount(email);
      expect((await api(h, 'POST', '/api/account/forgot-password', { body: { Email: email } })).status).toBe(200);
      return waitForMail(email, { after: before, subject: /password/i });
    };

    beforeAll(async () => {
      await setRateLimits(host, admin.jar, {});
      await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { Branding: { ProductName: 'Realm Co', PrimaryColor: '#123456' } } });
      // PrimaryColor null inherits the realm's; LogoUrl is not set at all.
      const settings = {
        Origin: { Subdomain: 'shop' },
        EmailBranding: { ProductName: 'Shop Online', PrimaryColor: null, SenderName: 'Shop Team', FooterText: 'Shop Ltd, 1 Market Road' },
      };
      const put = await putShop(settings);
      expect(put.status, put.text).toBe(200);
    });

    it('mail sent through the App’s host carries its override; a null field inherits the realm', async () => {
      const user = await makeUser(host, admin.jar);
      const mail = await reset(shopHost, user.email);
      expect(mail.subject).toBe('Reset your Shop Online password');
      expect(mail.from).toBe(`"Shop Team" <no-reply@${slug}.localhost>`);
      expect(mail.text).toContain('Shop Ltd, 1 Market Road');
      expect(mail.html).toContain('Shop Ltd, 1 Market Road');
      expect(mail.html).toContain('#123456');
      expect(mail.html).not.toContain('Realm Co');
    });

    it('mail sent through any other host carries the realm’s branding', async () => {
      const user = await makeUser(host, admin.jar);
      const mail = await reset(host, user.email);
      expect(mail.subject).toBe('Reset your Realm Co password');
      expect(mail.from).toBe(`"Realm Co" <no-reply@${slug}.localhost>`);
      expect(mail.text).not.toContain('Shop');
    });

    it('a registration for the App (its invite code) is mailed with the App’s branding', async () => {
      await api(host, 'PATCH', '/api/realm-settings', {
        cookie: admin.jar,
        body: { SelfRegistration: { Posture: 'ExplicitEndpoint', RequireInviteCode: true } },
      });
      const minted = await api(host, 'POST', `/api/app/${shopApp}/invite-codes`, { cookie: admin.jar, body: {} });
      expect(minted.status, minted.text).toBe(201);
      const email = `reg-${randomBytes(4).toString('hex')}@example.test`;
      const res = await api(shopHost, 'POST', '/api/account/register', { body: { Email: email, InviteCode: minted.body.Code } });
      expect(res.status, res.text).toBe(202);
      const mail = await waitForMail(email, { subject: /confirm/i });
      expect(mail.from).toBe(`"Shop Team" <no-reply@${slug}.localhost>`);
      expect(mail.text).toContain('Shop Ltd, 1 Market Road');
    });

    it('removing the override takes effect at once: the next mail carries the realm’s branding', async () => {
      const put = await putShop({ Origin: { Subdomain: 'shop' } });
      expect(put.status, put.text).toBe(200);
      const user = await makeUser(host, admin.jar);
      const mail = await reset(shopHost, user.email);
      expect(mail.subject).toBe('Reset your Realm Co password');
    });
  });
});
