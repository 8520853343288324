import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeUsers, shares, type BenchUser } from './bench-users';
import { FlowFailure, measureFlows, type FlowMeasurement } from './flows';

// E-mail code sign-in: POST /api/account/email-otp/login/request { Email }, the code read from the
// mail, POST /api/account/email-otp/login { Email, Code }. Without SMTP_URL the server writes each
// mail as an .eml file into <data dir>/outbox (lib/mail/transport.ts): cheaper for both sides than
// an SMTP exchange per mail, so the bench watches that directory. The request is padded to at least
// 400 ms (uniform-duration.ts) by design, so the rate is bounded by workers / 0.4 s: enough workers
// keep the server busy, and the request's own latency shows the padding.

class Outbox {
  private readonly waiting = new Map<string, (code: string) => void>();
  private readonly early = new Map<string, string>();
  private readonly watcher: FSWatcher;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.watcher = watch(dir, (_event, name) => {
      if (name?.endsWith('.eml')) this.read(join(dir, name));
    });
  }

  private seen = new Set<string>();
  private read(file: string): void {
    if (this.seen.has(file)) return;
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    const to = /^To: (?:.*<)?([^\s<>]+@[^\s<>]+?)>?\s*$/m.exec(raw)?.[1]?.toLowerCase();
    const body = raw.slice(raw.indexOf('\n\n'));
    const code = /(?:^|\s|>)(\d{6})(?:\s|<|$)/m.exec(body)?.[1];
    if (!to || !code) return; // partly written: the next change event reads it again
    this.seen.add(file);
    const resolve = this.waiting.get(to);
    if (resolve) {
      this.waiting.delete(to);
      resolve(code);
    } else this.early.set(to, code);
  }

  /** Forget anything that arrived for `to`; call before asking for a new code. */
  reset(to: string): void {
    this.early.delete(to);
  }

  code(to: string, timeoutMs = 10_000): Promise<string> {
    const early = this.early.get(to);
    if (early) {
      this.early.delete(to);
      return Promise.resolve(early);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(to);
        reject(new FlowFailure('no mail within 10 s'));
      }, timeoutMs);
      this.waiting.set(to, (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
  }

  close(): void {
    this.watcher.close();
  }
}

export async function emailOtpUsers(port: number, adminCookie: string, count: number): Promise<BenchUser[]> {
  return makeUsers(port, adminCookie, 'bench-otp', count);
}

export async function emailOtpLoginRow(
  port: number,
  dataDir: string,
  users: BenchUser[],
  o: { workers: number; duration: number; cpuMs: () => number },
): Promise<FlowMeasurement> {
  const outbox = new Outbox(join(dataDir, 'outbox'));
  const mine = shares(users, o.workers);
  const cursor = mine.map(() => 0);
  try {
    return await measureFlows(
      {
        name: `e-mail code request + login (${users.length} accounts)`,
        workers: o.workers,
        flow: async (w, send) => {
          const u = mine[w][cursor[w]++ % mine[w].length];
          const to = u.email.toLowerCase();
          outbox.reset(to);
          await send('request', { port, method: 'POST', path: '/api/account/email-otp/login/request', body: { Email: u.email } });
          const t = performance.now();
          const code = await outbox.code(to);
          mailWait.push(performance.now() - t);
          await send('login', { port, method: 'POST', path: '/api/account/email-otp/login', body: { Email: u.email, Code: code } });
        },
      },
      { duration: o.duration, cpuMs: o.cpuMs },
    );
  } finally {
    outbox.close();
  }
}

/** How long after its answer the request's mail was there (ms), for the report. */
export const mailWait: number[] = [];
