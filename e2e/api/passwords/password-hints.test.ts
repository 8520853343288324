import { beforeAll, describe, expect, it } from 'vitest';
import { api, realmWithAdmin, type SignedIn } from '../support/harness';
import { patchSettings } from '../mfa/fixtures';

// Every password hint comes from the realm's password policy (issue 8 item 18): with a minimum of
// 13, the pages that ask for a new password say 13, and no page says a length the policy does not.
let host: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  await patchSettings(host, admin.jar, { PasswordPolicy: { MinLength: 13 } });
});

const page = (path: string, cookie?: SignedIn['jar']) => api(host, 'GET', path, { cookie, headers: { accept: 'text/html' } });
const lengthsIn = (html: string) => [...html.matchAll(/[Aa]t least (\d+) characters/g)].map((m) => Number(m[1]));

describe('password hints', () => {
  it.each([
    ['the administrator invite', '/bootstrap?token=some-token'],
    ['the reset link', '/reset-password?token=some-token'],
  ])('%s page states the policy minimum', async (_, path) => {
    const res = await page(path);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const lengths = lengthsIn(res.text);
    expect(lengths.length, 'a length hint on the page').toBeGreaterThan(0);
    expect(new Set(lengths)).toEqual(new Set([13]));
  });

  it("the console's new-user form states the policy minimum", async () => {
    const res = await page('/console/users/new', admin.jar);
    expect(res.status).toBe(200);
    const lengths = lengthsIn(res.text);
    expect(lengths.length).toBeGreaterThan(0);
    expect(new Set(lengths)).toEqual(new Set([13]));
  });
});
