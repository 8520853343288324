import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { controlPlaneAdmin } from './admin';
import { startServer, type RunningServer } from './launch-server';
import type { BenchOptions } from './options';
import type { Report } from './report';
import { emailOtpLoginRow, emailOtpUsers, mailWait } from './scenario-email-otp';
import { forgotPasswordTiming, forgotUsers } from './scenario-forgot-password';
import { passkeyLoginRow, passkeyUsers } from './scenario-passkey';
import { totpLoginRow, totpUsers } from './scenario-totp';
import { median, progress } from './table';

// Issue 3: the other ways to sign in, per second, and the timing of forgot-password for an
// existing versus a missing address. A server of its own (SQLite, control plane) with
// GATEHOUSE_RATE_LIMIT_SCALE=0: these flows come from one client address at rates no per-source
// or per-account ceiling allows, and the limits are not what is measured here. The password-login
// row of the main phase keeps the limits on.

export const AUTH_SCENARIOS = ['totp', 'email-otp', 'passkey', 'forgot-password'] as const;

export async function authPhase(tmp: string, o: BenchOptions, report: Report, track: (s: RunningServer) => void): Promise<void> {
  const dataDir = join(tmp, 'auth');
  mkdirSync(dataDir, { recursive: true });
  const server = await startServer({ dataDir }, undefined, { GATEHOUSE_RATE_LIMIT_SCALE: '0' });
  track(server);
  report.notes.push(
    'Sign-in flows and forgot-password ran on a server of their own with GATEHOUSE_RATE_LIMIT_SCALE=0 (rate limits off), SQLite, the control-plane realm; mail went to the development outbox (.eml files), read by the bench with fs.watch.',
  );
  const cookie = await controlPlaneAdmin(server.env, server.port, 'bench-admin');
  const load = { workers: o.connections, duration: o.duration, cpuMs: server.cpuMs };

  if (o.only.has('totp')) {
    progress(`auth: enrolling ${o.totpUsers} TOTP accounts over the API`);
    const devices = await totpUsers(server.port, cookie, o.totpUsers);
    progress('auth: password + TOTP login');
    report.flows.push(await totpLoginRow(server.port, devices, load));
  }
  if (o.only.has('email-otp')) {
    progress(`auth: e-mail code request + login, ${o.otpWorkers} workers`);
    const users = await emailOtpUsers(server.port, cookie, o.otpWorkers * 2);
    mailWait.length = 0;
    report.flows.push(await emailOtpLoginRow(server.port, dataDir, users, { ...load, workers: o.otpWorkers }));
    report.notes.push(
      `E-mail code: the request answer is padded to ≥ 400 ms plus 0–60 ms jitter by design (uniform-duration.ts), so each worker does at most ~2 flows/s; ${o.otpWorkers} workers. The mail was already in the outbox when the request answered in ${((100 * mailWait.filter((ms) => ms < 1).length) / Math.max(1, mailWait.length)).toFixed(0)} % of flows (median wait after the answer ${median(mailWait).toFixed(0)} ms, warm-up included).`,
    );
  }
  if (o.only.has('passkey')) {
    progress('auth: registering passkeys over the API');
    const holders = await passkeyUsers(server.port, cookie, Math.max(40, o.connections * 4));
    progress('auth: passkey login');
    report.flows.push(await passkeyLoginRow(server.port, holders, load));
  }
  if (o.only.has('forgot-password')) {
    progress('auth: forgot-password, existing vs missing');
    // Padded like the e-mail code request: as many workers, and at least 8 s, for enough answers
    // of each kind to read a p99.
    const users = await forgotUsers(server.port, cookie, o.otpWorkers * 2);
    report.forgot = await forgotPasswordTiming(server.port, users, { ...load, workers: o.otpWorkers, duration: Math.max(o.duration, 8) });
    report.flows.push(report.forgot.row);
  }
  await server.stop();
}
