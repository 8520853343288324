import net from 'node:net';
import { loadavg } from 'node:os';
import autocannon, { type Options, type Request, type Result } from 'autocannon';
import { percentiles } from './flows';

// One throughput measurement: a short warm-up, then autocannon for `duration` seconds. Rates count
// 2xx answers only; non-2xx answers and errors are reported beside them, never hidden.

export type Measurement = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Server CPU time (all threads) per answered request, when the caller can read it. */
  cpuMsPerRequest: number;
  /** The 1-minute load average after the row: other processes on the machine skew every number. */
  load: number;
};

export type LoadSpec = {
  name: string;
  port: number;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Called for every request: rotate Host, cookie or body here. */
  setup?: (req: Request) => Request;
  /**
   * Open each connection from a fresh loopback source address (127.x.y.z) and reconnect after
   * this many requests. Per-source rate limits then see many clients, as in production; Linux
   * routes all of 127.0.0.0/8 to the loopback interface.
   */
  rotateSourceEvery?: number;
};

let nextSource = 1;
function freshSourceAddress(): string {
  const n = nextSource++;
  return `127.${(n >> 16) & 255 || 1}.${(n >> 8) & 255}.${n & 255 || 1}`;
}

/** While active, autocannon's net.connect(port, host) calls get a fresh local address each. */
async function withSourceRotation<T>(active: boolean, fn: () => PromiseLike<T>): Promise<T> {
  if (!active) return fn();
  const mutable = net as unknown as { connect: (...args: unknown[]) => net.Socket };
  const original = mutable.connect;
  mutable.connect = (...args: unknown[]) => {
    if (typeof args[0] === 'number' && typeof args[1] === 'string') {
      return original.call(net, { port: args[0], host: args[1], localAddress: freshSourceAddress() });
    }
    return original.apply(net, args);
  };
  try {
    return await fn();
  } finally {
    mutable.connect = original;
  }
}

async function once(spec: LoadSpec, connections: number, duration: number): Promise<Result> {
  const options: Options = {
    url: `http://127.0.0.1:${spec.port}${spec.path}`,
    connections,
    duration,
    timeout: 30,
    method: spec.method ?? 'GET',
    headers: { host: 'localhost', ...spec.headers },
    body: spec.body,
  };
  if (spec.setup) options.requests = [{ setupRequest: spec.setup }];
  if (spec.rotateSourceEvery) options.reconnectRate = spec.rotateSourceEvery;
  return withSourceRotation(Boolean(spec.rotateSourceEvery), () => autocannon(options));
}

export type MeasureOptions = { connections: number; duration: number; warmup?: number; cpuMs?: () => number };

export async function measure(spec: LoadSpec, opts: MeasureOptions): Promise<Measurement> {
  const warmup = opts.warmup ?? 1;
  if (warmup > 0) await once(spec, opts.connections, warmup);
  const cpuBefore = opts.cpuMs?.() ?? NaN;
  const r = await once(spec, opts.connections, opts.duration);
  const cpu = (opts.cpuMs?.() ?? NaN) - cpuBefore;
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = s.count;
  return {
    name: spec.name,
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statusCodes,
    cpuMsPerRequest: cpu / (r['2xx'] + r.non2xx),
    load: loadavg()[0],
  };
}

/** Rotates through `items` across requests (for Host headers, cookies, bodies). */
export function rotation<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length];
}

export type SplitSpec = {
  name: string;
  port: number;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** The body of each request, asked for just before the connection sends it. */
  body: () => string;
  /** Every answer's status and body, before the same connection asks for its next body. */
  onResponse?: (status: number, body: string) => void;
};

/**
 * Like `measure`, for requests that may be sent only once each (a rotating refresh token): one
 * autocannon instance per connection, run side by side. Within one instance all connections share
 * a single request object, and each connection builds its first request when it is created, so
 * every connection's first request would carry the body built last; with one connection per
 * instance each first request is its own. Latencies come from every answer, pooled.
 */
export async function measureSplit(spec: SplitSpec, opts: MeasureOptions): Promise<Measurement> {
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    const runs = Array.from({ length: opts.connections }, () =>
      autocannon({
        url: `http://127.0.0.1:${spec.port}${spec.path}`,
        connections: 1,
        duration: seconds,
        timeout: 30,
        method: spec.method ?? 'POST',
        headers: { host: 'localhost', ...spec.headers },
        requests: [{ setupRequest: (req) => ({ ...req, body: spec.body() }), onResponse: spec.onResponse }],
      }).on('response', (_client, _status, _bytes, ms) => latencies.push(ms)),
    );
    return { results: await Promise.all(runs), latencies };
  };
  const warmup = opts.warmup ?? 1;
  if (warmup > 0) await run(warmup);
  const cpuBefore = opts.cpuMs?.() ?? NaN;
  const { results, latencies } = await run(opts.duration);
  const cpu = (opts.cpuMs?.() ?? NaN) - cpuBefore;
  const statusCodes: Record<string, number> = {};
  for (const r of results) for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = (statusCodes[code] ?? 0) + s.count;
  const sum = (f: (r: Result) => number) => results.reduce((n, r) => n + f(r), 0);
  const ok = sum((r) => r['2xx']);
  const non2xx = sum((r) => r.non2xx);
  const p = percentiles(latencies);
  return {
    name: spec.name,
    rps: ok / Math.max(...results.map((r) => r.duration)),
    p50: p.p50,
    p99: p.p99,
    ok,
    non2xx,
    errors: sum((r) => r.errors + r.timeouts),
    statusCodes,
    cpuMsPerRequest: cpu / (ok + non2xx),
    load: loadavg()[0],
  };
}
