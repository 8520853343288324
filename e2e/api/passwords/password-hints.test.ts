import { beforeAll, describe, expect, it } from 'vitest';
import { api, cliInvite, realmWithAdmin, type SignedIn } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { patchSettings } from '../mfa/fixtures';
import { makeUser } from '../users/fixtures';
import { linkTo } from './links';

// Every password hint comes from the realm's password policy (issue 8 item 18): with a minimum of
// 13, the pages that ask for a new password say 13, and no page says a length the policy does not.
// The invite and reset pages ask for a password only for a link that still works, so they get real ones.
let host: string;
let slug: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, slug, admin } = await realmWithAdmin());
  await patchSettings(host, admin.jar, { PasswordPolicy: { MinLength: 13 } });
});

const page = (path: string, cookie?: SignedIn['jar']) => api(host, 'GET', path, { cookie, headers: { accept: 'text/html' } });
const lengthsIn = (html: string) => [...html.matchAll(/[Aa]t least (\d+) characters/g)].map((m) => Number(m[1]));

async function inviteLink(): Promise<string> {
  const url = await cliInvite({ realm: slug, email: `hint-${Date.now()}@example.test`, userName: `hint-${Date.now()}` });
  return url.pathname + url.search;
}

async function resetLink(): Promise<string> {
  const user = await makeUser(host, admin.jar);
  const before = await mailCount(user.email);
  expect((await api(host, 'POST', '/api/account/forgot-password', { body: { Email: user.email } })).status).toBe(200);
  const url = linkTo(await waitForMail(user.email, { after: before, subject: /reset/i }), '/reset-password');
  return url.pathname + url.search;
}

describe('password hints', () => {
  it.each([
    ['the administrator invite', inviteLink],
    ['the reset link', resetLink],
  ])('%s page states the policy minimum', async (_, link) => {
    const res = await page(await link());
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
