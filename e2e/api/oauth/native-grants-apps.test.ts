import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { patchSettings, ROOMY_SOURCE_LIMITS } from '../mfa/fixtures';
import { api, bootstrapAdmin, createRealm, expectProblem, type SignedIn } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { createClient } from '../support/oauth';
import { createTestApp, type TestApp } from '../support/test-apps';

// Native grants follow the App's `NativeGrants` setting (spec 4.4, 4.7 "Applications": an App's
// Settings section overrides the realm's). The deciding App is the client's App; a client without
// one is decided by the App the request's Host routes to (lib/domain/native-grants/native-grants.ts).
// Both halves are checked: the JSON code request (404 while off) and the grant at /connect/token
// (unauthorized_client while off; a wrong code answers invalid_grant once the grant is allowed).

const form = (fields: Record<string, string>) => ({ rawBody: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded' });
const NATIVE = ['urn:gatehouse:otp', 'urn:gatehouse:passkey'];

describe('NativeGrants per App', () => {
  let realm: { slug: string; domain: string; host: string };
  let admin: SignedIn;
  let appOn: TestApp;
  let appOff: TestApp;
  let onClient: string;
  let offClient: string;
  let plainClient: string;

  const nobody = () => `nobody-${randomBytes(4).toString('hex')}@example.test`;
  const requestCode = (host: string, clientId: string, email = nobody()) =>
    api(host, 'POST', '/api/account/native/otp/request', { body: { Email: email, ClientId: clientId } });
  /** The grant with a wrong code: `unauthorized_client` while the grant is off, `invalid_grant` once on. */
  const tryGrant = async (host: string, clientId: string) => {
    const res = await api(
      host,
      'POST',
      '/connect/token',
      form({ client_id: clientId, grant_type: 'urn:gatehouse:otp', email: nobody(), code: '000000', scope: 'openid' }),
    );
    expect(res.status, res.text).toBe(400);
    return res.body.error as string;
  };
  const begin = (host: string, clientId: string) => api(host, 'POST', '/connect/passkey/begin', { body: { client_id: clientId } });

  beforeAll(async () => {
    realm = await createRealm();
    admin = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, admin.jar, { RateLimits: ROOMY_SOURCE_LIMITS });
    appOn = await createTestApp(realm, admin, { NativeGrants: { Enabled: true } });
    // A null field inherits: this App says nothing about native grants.
    appOff = await createTestApp(realm, admin, { NativeGrants: { Enabled: false }, Dcr: { Enabled: null } });
    const client = async (appId: string | null) =>
      (
        await createClient(realm.host, admin.jar, {
          DisplayName: `Mobile ${appId ?? 'main'}`,
          ClientType: 'Public',
          ConsentType: 'Implicit',
          RedirectUris: ['com.example.mobile:/cb'],
          GrantTypes: NATIVE,
          Scopes: ['openid', 'email'],
          ...(appId ? { AppId: appId } : {}),
        })
      ).ClientId;
    [onClient, offClient, plainClient] = await Promise.all([client(appOn.id), client(appOff.id), client(null)]);
  });

  describe('the realm has native grants off', () => {
    it('a client of an App that turns them on gets codes and tokens, through any host', async () => {
      const since = await mailCount(admin.email);
      expect((await requestCode(realm.host, onClient, admin.email)).status).toBe(200);
      const mail = await waitForMail(admin.email, { after: since });
      const res = await api(
        realm.host,
        'POST',
        '/connect/token',
        form({ client_id: onClient, grant_type: 'urn:gatehouse:otp', email: admin.email, code: mail.code!, scope: 'openid email' }),
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.id_token).toBeTruthy();
      expect(await tryGrant(appOff.host, onClient)).toBe('invalid_grant');
      expect((await begin(realm.host, onClient)).status).toBe(200);
    });

    it('a client of no App is refused on the realm host: 404 for the code, unauthorized_client for the grant', async () => {
      expectProblem(await requestCode(realm.host, plainClient), 404, 'NativeGrants.Disabled');
      expect(await tryGrant(realm.host, plainClient)).toBe('unauthorized_client');
      expectProblem(await begin(realm.host, plainClient), 404, 'NativeGrants.Disabled');
    });

    it('a client of no App called through an App host that turns them on is decided by that App', async () => {
      expect((await requestCode(appOn.host, plainClient)).status).toBe(200);
      expect(await tryGrant(appOn.host, plainClient)).toBe('invalid_grant');
      expect((await begin(appOn.host, plainClient)).status).toBe(200);
    });

    it('the client’s own App decides over the host’s: an App that turns them off stays off through an App host that turns them on', async () => {
      expectProblem(await requestCode(appOn.host, offClient), 404, 'NativeGrants.Disabled');
      expect(await tryGrant(appOn.host, offClient)).toBe('unauthorized_client');
    });
  });

  describe('the realm turns native grants on', () => {
    beforeAll(async () => {
      await patchSettings(realm.host, admin.jar, { NativeGrants: { Enabled: true } });
    });

    it('clients of no App and of an inheriting App may use them', async () => {
      expect((await requestCode(realm.host, plainClient)).status).toBe(200);
      expect(await tryGrant(realm.host, plainClient)).toBe('invalid_grant');
      expect(await tryGrant(realm.host, onClient)).toBe('invalid_grant');
    });

    it('a client of an App that turns them off is refused: 404, unauthorized_client, and no passkey ceremony', async () => {
      expectProblem(await requestCode(realm.host, offClient), 404, 'NativeGrants.Disabled');
      expect(await tryGrant(realm.host, offClient)).toBe('unauthorized_client');
      expectProblem(await begin(realm.host, offClient), 404, 'NativeGrants.Disabled');
    });

    it('a client of no App called through the host of an App that turns them off is refused there only', async () => {
      expectProblem(await requestCode(appOff.host, plainClient), 404, 'NativeGrants.Disabled');
      expect(await tryGrant(appOff.host, plainClient)).toBe('unauthorized_client');
      expect(await tryGrant(realm.host, plainClient)).toBe('invalid_grant');
    });

    it('an unknown client is still a 400 where the grants are on', async () => {
      expectProblem(await requestCode(realm.host, 'no-such-client'), 400, 'Validation.Failed');
    });
  });
});
