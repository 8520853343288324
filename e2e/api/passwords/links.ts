import { expect } from 'vitest';
import { api, type CookieJar } from '../support/harness';
import type { ReceivedMail } from '../support/mailbox';

// Reading the mailed links of the account flows (password reset, verification): the token reaches
// the tests only as the user gets it, in the link of a real mail.

/** The link of `mail` that opens `page` (e.g. `/reset-password`), as a URL. */
export function linkTo(mail: ReceivedMail, page: string): URL {
  const link = mail.links.map((l) => new URL(l)).find((u) => u.pathname === page);
  if (!link) throw new Error(`no ${page} link in the mail "${mail.subject}": ${mail.links.join(', ')}`);
  return link;
}

/** The `token` parameter of that link. */
export function tokenIn(mail: ReceivedMail, page: string): string {
  const token = linkTo(mail, page).searchParams.get('token');
  expect(token, `token in ${page} link`).toBeTruthy();
  return token!;
}

/** Raises (or lowers) a realm's rate-limit ceilings through its settings, as a realm administrator would. */
export async function setRateLimits(
  host: string,
  admin: CookieJar,
  limits: Record<string, Record<string, { Points: number; DurationSeconds: number }>>,
): Promise<void> {
  const res = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin, body: { RateLimits: limits } });
  if (res.status !== 200) throw new Error(`PATCH /api/realm-settings answered ${res.status}: ${res.text}`);
}

/** Asserts the spec 7 rate-limit rejection: 429, Retry-After, and the body naming policy and dimension. */
export function expectRateLimited(res: { status: number; headers: Record<string, unknown>; body: any; text: string }, policy: string, dimension: string): void {
  expect(res.status, res.text).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.body).toMatchObject({ error: 'rate_limited', policy, dimension });
  expect(Number.isInteger(res.body.retryAfterSeconds)).toBe(true);
  expect(res.body.retryAfterSeconds).toBeGreaterThan(0);
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
