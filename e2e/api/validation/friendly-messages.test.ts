import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';

// Validation.Failed problems speak in plain sentences (CONTRACT.md "Wire rules": `errors` maps a
// field to its messages): zod's own English ("Too big: expected string to have <=100 characters",
// "Invalid input: expected string, received undefined") never reaches a client.
const RAW = /expected|received|Invalid input|Invalid option|Too big|Too small|Unrecognized key/i;

let host: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
});

function allMessages(errors: Record<string, string[]>): string[] {
  return Object.values(errors).flat();
}

describe('friendly validation messages', () => {
  it('an admin body: a missing field is required, a long one says its limit', async () => {
    const res = await api(host, 'POST', '/api/user', {
      cookie: admin.jar,
      body: { Email: 'ada@example.test', Firstname: 'A'.repeat(101), IsActive: 'yes' },
    });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors).toEqual({
      UserName: ['This field is required.'],
      Firstname: ['Use at most 100 characters.'],
      IsActive: ['Use true or false.'],
    });
  });

  it('lists, choices and nested fields are answered in words too', async () => {
    const res = await api(host, 'POST', '/api/admin/oauth/clients', {
      cookie: admin.jar,
      body: { ClientId: 'x'.repeat(500), DisplayName: 42, ClientType: 'Secret', ConsentType: 'Implicit', RedirectUris: 'https://a.example/cb', GrantTypes: [] },
    });
    expectProblem(res, 400, 'Validation.Failed');
    const messages = allMessages(res.body.errors);
    expect(messages.length).toBeGreaterThanOrEqual(4);
    for (const m of messages) expect(m).not.toMatch(RAW);
    expect(res.body.errors.ClientType).toEqual(['Choose one of: Public, Confidential.']);
    expect(res.body.errors.RedirectUris).toEqual(['This must be a list.']);
    expect(res.body.errors.DisplayName).toEqual(['Enter text.']);
  });

  it('an anonymous route: the explicit messages of the rule still win', async () => {
    const res = await api(host, 'POST', '/api/account/forgot-password', { body: { Email: 'not an address' } });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors.Email).toEqual(['Enter a valid e-mail address, like name@example.com.']);
    const missing = await api(host, 'POST', '/api/account/forgot-password', { body: {} });
    expectProblem(missing, 400, 'Validation.Failed');
    expect(missing.body.errors.Email).toEqual(['This field is required.']);
  });
});
