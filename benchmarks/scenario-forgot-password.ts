import { makeUsers, shares, type BenchUser } from './bench-users';
import { measureFlows, percentiles, type FlowMeasurement, type Percentiles } from './flows';

// Anti-enumeration by time (spec 5.6): POST /api/account/forgot-password must take as long for an
// address without an account as for one with. Workers alternate between the two kinds, so both
// see the same load; each kind's answer times are kept apart. Target: medians within 10 %.

export type ForgotTiming = { row: FlowMeasurement; existing: Percentiles; missing: Percentiles; ratio: number };

export async function forgotUsers(port: number, adminCookie: string, count: number): Promise<BenchUser[]> {
  return makeUsers(port, adminCookie, 'bench-forgot', count);
}

export async function forgotPasswordTiming(
  port: number,
  users: BenchUser[],
  o: { workers: number; duration: number; cpuMs: () => number },
): Promise<ForgotTiming> {
  const mine = shares(users, o.workers);
  const turn = mine.map(() => 0);
  const row = await measureFlows(
    {
      name: 'forgot-password (existing and missing alternately)',
      workers: o.workers,
      flow: async (w, send) => {
        const i = turn[w]++;
        const existing = i % 2 === 0;
        const email = existing ? mine[w][(i >> 1) % mine[w].length].email : `nobody-${w}-${i}@bench.test`;
        await send(existing ? 'existing' : 'missing', { port, method: 'POST', path: '/api/account/forgot-password', body: { Email: email } });
      },
    },
    { duration: o.duration, cpuMs: o.cpuMs },
  );
  const existing = row.steps.existing ?? percentiles([]);
  const missing = row.steps.missing ?? percentiles([]);
  return { row, existing, missing, ratio: missing.p50 / existing.p50 };
}
