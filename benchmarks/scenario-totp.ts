import { generate } from 'otplib';
import { PASSWORD } from './admin';
import { makeUsers, passwordSession, shares, type BenchUser } from './bench-users';
import { cookiesFrom, FlowFailure, measureFlows, type FlowMeasurement } from './flows';
import { expectStatus, mapLimit } from './http';

// Password + TOTP sign-in: POST /api/account/login (answers requiresTwoFactor and the pending
// cookie), then POST /api/account/mfa/login with an otplib code. The server refuses a second use of
// a code (or an older one) per user (Mfa.CodeReplayed) and accepts the steps now-1..now+1, so one
// account gives at most three sign-ins at once and one more per 30 s: the flows rotate over many
// accounts, each worker over its own share, and a worker whose accounts are all spent for the
// current step counts that as "no fresh code" rather than sending a replay.

type Device = BenchUser & { key: string; last: number };

const step = () => Math.floor(Date.now() / 30_000);

async function enrol(port: number, user: BenchUser): Promise<Device> {
  const cookie = await passwordSession(port, user.userName);
  const setup = await expectStatus(200, { port, method: 'POST', path: '/api/account/mfa/setup', cookie });
  const key = setup.json<{ SharedKey: string }>().SharedKey.replace(/\s+/g, '');
  const now = step();
  await expectStatus(200, {
    port,
    method: 'POST',
    path: '/api/account/mfa/verify',
    cookie,
    body: { Code: await generate({ secret: key, epoch: (now - 1) * 30 }) },
  });
  return { ...user, key, last: now - 1 };
}

export async function totpUsers(port: number, adminCookie: string, count: number): Promise<Device[]> {
  const users = await makeUsers(port, adminCookie, 'bench-totp', count);
  return mapLimit(users, 4, (u) => enrol(port, u));
}

export async function totpLoginRow(port: number, devices: Device[], o: { workers: number; duration: number; cpuMs: () => number }): Promise<FlowMeasurement> {
  const mine = shares(devices, o.workers);
  const cursor = mine.map(() => 0);
  return measureFlows(
    {
      name: `password + TOTP login (${devices.length} accounts)`,
      workers: o.workers,
      flow: async (w, send) => {
        // The next account of this worker with an acceptable step left (and away from a boundary).
        if (30_000 - (Date.now() % 30_000) < 1_500) await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 50));
        const now = step();
        const list = mine[w];
        let d: Device | undefined;
        for (let i = 0; i < list.length && !d; i++) {
          const c = list[(cursor[w] + i) % list.length];
          if (Math.max(now - 1, c.last + 1) <= now + 1) {
            d = c;
            cursor[w] = (cursor[w] + i + 1) % list.length;
          }
        }
        if (!d) {
          await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 50));
          throw new FlowFailure('no fresh code (waited for the next step)');
        }
        const s = Math.max(now - 1, d.last + 1);
        d.last = s;
        const first = await send('login', { port, method: 'POST', path: '/api/account/login', body: { UserName: d.userName, Password: PASSWORD } });
        if (!first.text.includes('requiresTwoFactor')) throw new FlowFailure(`login did not ask for a second factor: ${first.text.slice(0, 80)}`);
        await send('mfa/login', {
          port,
          method: 'POST',
          path: '/api/account/mfa/login',
          cookie: cookiesFrom(first),
          body: { Code: await generate({ secret: d.key, epoch: s * 30 }) },
        });
      },
    },
    { duration: o.duration, cpuMs: o.cpuMs },
  );
}
