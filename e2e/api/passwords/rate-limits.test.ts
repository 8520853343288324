import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, strongPassword } from '../support/harness';
import { makeUser } from '../users/fixtures';
import { expectRateLimited } from './links';

// The default ceilings of the password routes (lib/rate-limit/policies.ts; spec 7, 8): each test
// uses a fresh realm, since counters are per realm and the tests all come from one address.
async function freshRealm() {
  const realm = await createRealm();
  const admin = await bootstrapAdmin(realm.slug);
  return { host: realm.host, admin };
}

describe('forgot-password', () => {
  let host: string;
  let existing: string;
  beforeAll(async () => {
    const r = await freshRealm();
    host = r.host;
    existing = (await makeUser(host, r.admin.jar)).email;
  });
  const forgot = (email: string) => api(host, 'POST', '/api/account/forgot-password', { body: { Email: email } });

  it('limits each mailbox to 3 requests per window, whether or not it has an account', async () => {
    const missing = 'nobody-here@example.test';
    for (let i = 0; i < 3; i++) {
      expect((await forgot(existing)).status).toBe(200);
      expect((await forgot(missing)).status).toBe(200);
    }
    const a = await forgot(existing);
    const b = await forgot(missing);
    expectRateLimited(a, 'forgot-password', 'target');
    expectRateLimited(b, 'forgot-password', 'target');
    // Existing or not, the refusal reads the same.
    expect({ ...a.body, retryAfterSeconds: 0 }).toEqual({ ...b.body, retryAfterSeconds: 0 });
  });

  it('limits each source address to 10 requests per window', async () => {
    // 8 requests so far from this address; two more pass, the eleventh does not.
    expect((await forgot('other-1@example.test')).status).toBe(200);
    expect((await forgot('other-2@example.test')).status).toBe(200);
    expectRateLimited(await forgot('other-3@example.test'), 'forgot-password', 'source');
  });
});

describe('reset-password', () => {
  it('limits each source address to 20 attempts per window', async () => {
    const { host } = await freshRealm();
    const body = { Email: 'someone@example.test', Token: 'A'.repeat(43), NewPassword: strongPassword() };
    for (let i = 0; i < 20; i++) expect((await api(host, 'POST', '/api/account/reset-password', { body })).status).toBe(400);
    expectRateLimited(await api(host, 'POST', '/api/account/reset-password', { body }), 'reset-password', 'source');
  });
});
