import { loadavg } from 'node:os';
import { request, type Reply } from './http';
import { median } from './table';

// Closed-loop measurement of multi-request flows (sign-in in two steps, request + mailed code, …),
// which autocannon cannot chain: `workers` loops run one flow after another for `duration` seconds
// after a warm-up. A flow counts when every step answered what it expects; anything else is counted
// by its reason and shown. Latencies are per flow and per step.

export type Step = (name: string, opts: Parameters<typeof request>[0], expect?: number) => Promise<Reply>;

export type FlowSpec = {
  name: string;
  workers: number;
  /** One flow by worker `w`; calls `step` for every HTTP request (timed and counted). */
  flow: (w: number, step: Step) => Promise<void>;
};

export type Percentiles = { p50: number; p90: number; p99: number; n: number };

export type FlowMeasurement = {
  name: string;
  workers: number;
  flowsPerSecond: number;
  flow: Percentiles;
  steps: Record<string, Percentiles>;
  ok: number;
  failures: Record<string, number>;
  requests: number;
  cpuMsPerFlow: number;
  cpuMsPerRequest: number;
  load: number;
};

export function percentiles(values: number[]): Percentiles {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN);
  return { p50: median(s), p90: at(0.9), p99: at(0.99), n: s.length };
}

export class FlowFailure extends Error {}

async function loop(spec: FlowSpec, seconds: number, record: boolean) {
  const flows: number[] = [];
  const steps: Record<string, number[]> = {};
  const failures: Record<string, number> = {};
  let requests = 0;
  const deadline = performance.now() + seconds * 1000;
  const step: Step = async (name, opts, expect = 200) => {
    const t = performance.now();
    const r = await request(opts);
    requests++;
    if (record) (steps[name] ??= []).push(performance.now() - t);
    if (r.status !== expect) throw new FlowFailure(`${name} ${r.status}${r.status >= 400 ? ` ${/"code":"([^"]+)"/.exec(r.text)?.[1] ?? ''}` : ''}`.trim());
    return r;
  };
  const worker = async (w: number) => {
    while (performance.now() < deadline) {
      const t = performance.now();
      try {
        await spec.flow(w, step);
        flows.push(performance.now() - t);
      } catch (e) {
        const reason = e instanceof FlowFailure ? e.message : e instanceof Error ? e.message.slice(0, 80) : String(e);
        failures[reason] = (failures[reason] ?? 0) + 1;
        if (!(e instanceof FlowFailure)) await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: spec.workers }, (_, w) => worker(w)));
  return { flows, steps, failures, requests, elapsed: (performance.now() - started) / 1000 };
}

export async function measureFlows(spec: FlowSpec, o: { duration: number; warmup?: number; cpuMs?: () => number }): Promise<FlowMeasurement> {
  if ((o.warmup ?? 1) > 0) await loop(spec, o.warmup ?? 1, false);
  const cpuBefore = o.cpuMs?.() ?? NaN;
  const r = await loop(spec, o.duration, true);
  const cpu = (o.cpuMs?.() ?? NaN) - cpuBefore;
  const steps: Record<string, Percentiles> = {};
  for (const [k, v] of Object.entries(r.steps)) steps[k] = percentiles(v);
  return {
    name: spec.name,
    workers: spec.workers,
    flowsPerSecond: r.flows.length / r.elapsed,
    flow: percentiles(r.flows),
    steps,
    ok: r.flows.length,
    failures: r.failures,
    requests: r.requests,
    cpuMsPerFlow: cpu / Math.max(1, r.flows.length),
    cpuMsPerRequest: cpu / Math.max(1, r.requests),
    load: loadavg()[0],
  };
}

/** The `name=value` pairs of every cookie an answer set, joined for a Cookie header. */
export function cookiesFrom(reply: Reply, previous = ''): string {
  const jar = new Map(previous ? previous.split('; ').map((c) => [c.slice(0, c.indexOf('=')), c] as const) : []);
  for (const c of reply.headers['set-cookie'] ?? []) {
    const pair = c.split(';')[0];
    jar.set(pair.slice(0, pair.indexOf('=')), pair);
  }
  return [...jar.values()].join('; ');
}
