import { expect } from 'vitest';
import { TotpDevice } from '../../shared/totp-device';
import { api, CookieJar, eventually, type ApiResponse } from '../support/harness';

// Shared by the second-factor, e-mail code and magic-link tests: realm settings, wrong codes for the
// TOTP device (e2e/shared/totp-device.ts), and sign-in steps.

export const SESSION_COOKIE = 'gatehouse_session';
export const PENDING_COOKIE = 'gatehouse_mfa';

/** PATCH /api/realm-settings as the realm administrator; insists on 200. */
export async function patchSettings(host: string, admin: CookieJar, patch: Record<string, unknown>): Promise<void> {
  const res = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin, body: patch });
  if (res.status !== 200) throw new Error(`PATCH /api/realm-settings answered ${res.status}: ${res.text}`);
}

/** Ceilings high enough that a test file's own traffic from 127.0.0.1 never trips the source limits. */
export const ROOMY_SOURCE_LIMITS = Object.fromEntries(
  ['login', 'mfa-login', 'email-otp-request', 'email-otp-login', 'magic-link-request', 'magic-link-login'].map((p) => [
    p,
    { Source: { Points: 10_000, DurationSeconds: 60 } },
  ]),
);

/** A wrong code: a six-digit number that is none of the three acceptable ones. */
export async function wrongCode(device: TotpDevice): Promise<string> {
  const now = TotpDevice.step();
  const valid = new Set(await Promise.all([now - 1, now, now + 1].map((s) => device.codeAt(s))));
  for (let i = 0; ; i++) {
    const c = String((123_456 + i * 7_919) % 1_000_000).padStart(6, '0');
    if (!valid.has(c)) return c;
  }
}

/** Setup + verify with the signed-in jar; returns the device. */
export async function enrolTotp(host: string, jar: CookieJar): Promise<TotpDevice> {
  const setup = await api(host, 'POST', '/api/account/mfa/setup', { cookie: jar });
  expect(setup.status, setup.text).toBe(200);
  const device = new TotpDevice(setup.body.SharedKey);
  const verify = await api(host, 'POST', '/api/account/mfa/verify', { cookie: jar, body: { Code: await device.code() } });
  expect(verify.status, verify.text).toBe(200);
  return device;
}

/** Password step of a sign-in; returns the answer and a jar that holds what it set. */
export async function passwordStep(host: string, userName: string, password: string): Promise<{ res: ApiResponse; jar: CookieJar }> {
  const jar = new CookieJar();
  const res = await api(host, 'POST', '/api/account/login', { cookie: jar, body: { UserName: userName, Password: password } });
  return { res, jar };
}

export type LogEntry = { EventType: string; Success?: boolean; UserId?: string; UserName?: string; Detail?: unknown };

/** Waits until the realm's security log holds an entry of `eventType` matching `where`. */
export async function expectLogged(host: string, admin: CookieJar, eventType: string, where: (e: LogEntry) => boolean = () => true): Promise<LogEntry[]> {
  return eventually(async () => {
    const res = await api(host, 'GET', `/api/admin/auth-log?eventType=${encodeURIComponent(eventType)}&limit=1000`, { cookie: admin });
    expect(res.status, res.text).toBe(200);
    const hits = (res.body as LogEntry[]).filter(where);
    expect(hits.length, `${eventType} in the security log`).toBeGreaterThan(0);
    return res.body as LogEntry[];
  });
}

/** The whole security log, as text (to check that no code or token was written into it). */
export async function securityLogText(host: string, admin: CookieJar): Promise<string> {
  const res = await api(host, 'GET', '/api/admin/auth-log?limit=1000', { cookie: admin });
  expect(res.status, res.text).toBe(200);
  return res.text;
}

/** Median of durations. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Wall-clock milliseconds of one request. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}
