import { beforeAll, describe, expect, it } from 'vitest';
import { codeFlowTokens, rp, webClientBody } from '../oauth/fixtures';
import { enrolTotp, expectLogged } from '../mfa/fixtures';
import { api, createRealm, bootstrapAdmin, expectProblem, type CookieJar, type SignedIn } from '../support/harness';
import { createClient } from '../support/oauth';
import { realmSql } from '../support/realm-sql';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { archiveOf, archiveText, asProblem, credentialValues, download } from './fixtures';

// GET /api/auth/export-data (spec 4.6, GDPR Article 20; CONTRACT.md "Apps, privacy and manifests"):
// a ZIP with profile.json and one JSON file per kind of personal data, never a hash or a secret.
describe('data export', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let user: MadeUser;
  let jar: CookieJar;

  beforeAll(async () => {
    ({ host, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
    user = await makeUser(host, admin.jar, { Firstname: 'Grace', Lastname: 'Hopper' });
    jar = await signedIn(host, user);
    // Something of every kind: a second factor, a passkey, a change request, a group, a consent.
    await enrolTotp(host, jar);
    await realmSql(slug, `INSERT INTO "Passkey" ("id", "userId", "credentialId", "publicKey", "rpId", "displayName") VALUES ($1, $2, $3, $4, $5, $6)`, [
      `pk-${user.id}`,
      user.id,
      `cred-${user.id}-0123456789abcdef`,
      `pubkey-${user.id}-0123456789abcdef`,
      realmSqlDomain(host),
      'Work laptop',
    ]);
    const request = await api(host, 'PUT', '/api/account/profile/request', { cookie: jar, body: { Email: `new-${user.email}` } });
    expect(request.status, request.text).toBe(202);
    const group = await api(host, 'POST', '/api/group', { cookie: admin.jar, body: { Name: 'Newsletter readers' } });
    expect(group.status, group.text).toBe(201);
    expect((await api(host, 'POST', `/api/user/${user.id}/groups`, { cookie: admin.jar, body: { GroupId: group.body.Id } })).status).toBe(201);
    const client = await createClient(host, admin.jar, webClientBody({ ClientId: 'export-shop', DisplayName: 'Export shop' }));
    await codeFlowTokens(host, await rp(host, client.ClientId, client.ClientSecret), jar, 'openid email offline_access');
  });

  it('needs a signed-in person', async () => {
    expectProblem(asProblem(await download(host, 'GET', '/api/auth/export-data')), 401, 'Auth.Unauthenticated');
  });

  it('answers a ZIP download with every kind of personal data', async () => {
    const res = await download(host, 'GET', '/api/auth/export-data', { cookie: jar });
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${slug}-my-data-\\d{4}-\\d{2}-\\d{2}\\.zip"$`));
    expect(res.headers['cache-control']).toBe('no-store');
    const zip = archiveOf(res);
    expect([...zip.keys()]).toEqual([
      'profile.json',
      'sessions.json',
      'passkeys.json',
      'external-links.json',
      'change-requests.json',
      'consents.json',
      'groups.json',
      'invite-codes.json',
      'security-log.json',
    ]);
    expect(zip.get('profile.json')!.json()).toMatchObject({
      Id: user.id,
      UserName: user.userName,
      Email: user.email,
      Firstname: 'Grace',
      Lastname: 'Hopper',
      HasPassword: true,
      TwoFactor: { Enabled: true },
      Realm: { Slug: slug },
    });
    expect(zip.get('passkeys.json')!.json().Passkeys).toEqual([expect.objectContaining({ Id: `pk-${user.id}`, DisplayName: 'Work laptop' })]);
    expect(zip.get('change-requests.json')!.json().ChangeRequests).toEqual([
      expect.objectContaining({ Status: 'AwaitingEmailVerification', NewEmail: `new-${user.email}` }),
    ]);
    expect(zip.get('groups.json')!.json().Groups).toEqual([expect.objectContaining({ Name: 'Newsletter readers' })]);
    expect(zip.get('consents.json')!.json().Consents).toEqual([
      expect.objectContaining({ ClientId: 'export-shop', ClientName: 'Export shop', Scopes: expect.arrayContaining(['openid', 'email']) }),
    ]);
    const sessions = zip.get('sessions.json')!.json();
    expect(sessions.ClientSessions).toEqual([expect.objectContaining({ ClientId: 'export-shop' })]);
    expect(sessions.BrowserSessions.length).toBeGreaterThanOrEqual(1);
    expect(sessions.BrowserSessions[0]).toMatchObject({ IpAddress: expect.any(String), Methods: ['pwd'] });
    const log = zip.get('security-log.json')!.json().Entries as { EventType: string; UserName?: string }[];
    expect(log.map((e) => e.EventType)).toEqual(expect.arrayContaining(['auth.login-succeeded', 'auth.two-factor-enabled', 'user.change-requested']));
    // Nobody else's entries: the administrator made the account and the group.
    expect(log.some((e) => e.EventType === 'user.created')).toBe(false);
  });

  it('never holds a hash, key, token or sealed value of the account', async () => {
    const zip = archiveOf(await download(host, 'GET', '/api/auth/export-data', { cookie: jar }));
    const text = archiveText(zip);
    const secrets = await credentialValues(slug, user.id);
    // The password hash, the session digests, the TOTP key, the passkey, the change request's
    // token digest, the engine's row keys and sealed values: a good dozen values to look for.
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    for (const value of secrets) expect(text.includes(value), `the archive holds ${value.slice(0, 12)}…`).toBe(false);
    expect(text).not.toMatch(/\$argon2|"(PasswordHash|TokenHash|SecretHash|SecretEncrypted|PublicKey|CredentialId|SecurityStamp|Jti)"/i);
    expect(text).not.toContain(admin.userName);
  });

  it('is recorded in the security log, and limited per account', async () => {
    await expectLogged(host, admin.jar, 'account.data-exported', (e) => e.UserId === user.id);
    const log = await api(host, 'GET', '/api/admin/auth-log?eventType=account.data-exported&limit=5', { cookie: admin.jar });
    expect(log.body[0]).toMatchObject({ Category: 'Privacy', UserId: user.id });

    const other = await makeUser(host, admin.jar);
    const otherJar = await signedIn(host, other);
    const settings = await api(host, 'PATCH', '/api/realm-settings', {
      cookie: admin.jar,
      body: { RateLimits: { 'data-export': { Target: { Points: 1, DurationSeconds: 3600 } } } },
    });
    expect(settings.status, settings.text).toBe(200);
    archiveOf(await download(host, 'GET', '/api/auth/export-data', { cookie: otherJar }));
    const refused = asProblem(await download(host, 'GET', '/api/auth/export-data', { cookie: otherJar }));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'rate_limited', policy: 'data-export', dimension: 'target' });
  });
});

/** The realm's domain (a passkey's RP ID), from the Host header. */
function realmSqlDomain(host: string): string {
  return host.split(':')[0];
}
