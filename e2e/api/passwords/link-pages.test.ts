import { beforeAll, describe, expect, it } from 'vitest';
import { api, cliInvite, realmWithAdmin, strongPassword, type SignedIn } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { makeUser, type MadeUser } from '../users/fixtures';
import { linkTo } from './links';

// The pages mailed links open read their link's state first (issue 11 item 7): a used invite says
// so before a password is asked for (spec 3.3, BootstrapInvite.TokenUsed), and the reset page names
// the account the link was mailed to instead of asking for it, to the link's holder only.
let host: string;
let slug: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, slug, admin } = await realmWithAdmin());
});

const html = (path: string) => api(host, 'GET', path, { headers: { accept: 'text/html' } });

async function resetLinkFor(user: MadeUser): Promise<URL> {
  const before = await mailCount(user.email);
  expect((await api(host, 'POST', '/api/account/forgot-password', { body: { Email: user.email } })).status).toBe(200);
  return linkTo(await waitForMail(user.email, { after: before, subject: /reset/i }), '/reset-password');
}

describe('the administrator invite page', () => {
  it('asks for a password for an open link, says "used" once it was redeemed, and refuses an unknown one', async () => {
    const url = await cliInvite({ realm: slug, email: `second-${Date.now()}@example.test`, userName: `second-${Date.now()}` });
    const path = url.pathname + url.search;
    const open = await html(path);
    expect(open.status).toBe(200);
    expect(open.text).toContain('Set password and continue');

    const token = url.searchParams.get('token')!;
    expect((await api(host, 'POST', '/api/account/bootstrap-admin', { body: { Token: token, Password: strongPassword() } })).status).toBe(200);
    const used = await html(path);
    expect(used.status).toBe(200);
    expect(used.text).toContain('This invite link has already been used');
    expect(used.text).not.toContain('Set password and continue');

    const unknown = await html('/bootstrap?token=no-such-token');
    expect(unknown.text).toContain('This invite link is invalid or has expired');
    expect(unknown.text).not.toContain('Set password and continue');
    // The CLI and, on a development server, the page's first compilation take their time.
  }, 180_000);
});

describe('the reset page', () => {
  it('names the address of an open link and asks only for the new password; the reset works without typing it', async () => {
    const user = await makeUser(host, admin.jar);
    const link = await resetLinkFor(user);
    const page = await html(link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(page.text).toContain(user.email.toLowerCase());
    expect(page.text).not.toMatch(/>E-mail address</);
    // The page sends the address it showed; the API contract (Email, Token, NewPassword) is unchanged.
    const res = await api(host, 'POST', '/api/account/reset-password', {
      body: { Email: user.email.toLowerCase(), Token: link.searchParams.get('token'), NewPassword: strongPassword() },
    });
    expect(res.status, res.text).toBe(200);
    const spent = await html(link.pathname + link.search);
    expect(spent.text).toContain('This link has already been used');
    expect(spent.text).not.toContain(user.email.toLowerCase());
  });

  it('shows no address to someone without a working token', async () => {
    const user = await makeUser(host, admin.jar);
    await resetLinkFor(user);
    for (const token of ['no-such-token', 'x'.repeat(300)]) {
      const page = await html(`/reset-password?token=${token}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('This link is not valid');
      expect(page.text).not.toContain(user.email.toLowerCase());
      expect(page.text).not.toContain('Set new password');
    }
  });
});
