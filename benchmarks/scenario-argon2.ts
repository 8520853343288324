import { hashPassword, verifyPassword } from '../lib/auth/passwords';

// The ceiling of password login: argon2id verifications per second in this process, with the
// product's own hashing code (lib/auth/passwords.ts, so the parameters are the same), `concurrency`
// verifications in flight on the libuv pool.

import { loadavg } from 'node:os';

export type Argon2Rate = { concurrency: number; perSecond: number; msEach: number; cpuMsEach: number; load: number; round?: number };

async function argon2VerifyRate(concurrency: number, seconds: number): Promise<Argon2Rate> {
  const hash = await hashPassword('bench-password-1234');
  for (let i = 0; i < 4; i++) await verifyPassword(hash, 'bench-password-1234'); // warm-up
  let done = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      if (!(await verifyPassword(hash, 'bench-password-1234'))) throw new Error('argon2 verify failed');
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    concurrency,
    perSecond: done / elapsed,
    msEach: (elapsed * 1000 * concurrency) / done,
    cpuMsEach: (cpu.user + cpu.system) / 1000 / done,
    load: loadavg()[0],
  };
}

/** The raw ceiling: the rate at as many verifications in flight as cores (2 here) and at twice that. */
export async function argon2Rates(seconds: number, round?: number): Promise<Argon2Rate[]> {
  const rates: Argon2Rate[] = [];
  for (const c of [2, 4]) rates.push({ ...(await argon2VerifyRate(c, seconds)), ...(round ? { round } : {}) });
  return rates;
}
