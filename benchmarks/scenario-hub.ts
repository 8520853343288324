import WebSocket from 'ws';
import { expectStatus, mapLimit } from './http';
import { progress } from './table';

// Raw WebSocket consoles of the hub `/signalr/ui` (docs/realtime.md), lighter than @microsoft/signalr
// for ten thousand of them, but speaking the same protocol: negotiate over HTTP with the session
// cookie, the upgrade on `?id=<connectionToken>`, the JSON handshake, a ping every 10 s (the server
// closes a connection silent for 30 s), and `changed` invocations read record by record.

const RS = '\x1e';
const HANDSHAKE = `${JSON.stringify({ protocol: 'json', version: 1 })}${RS}`;
const PING = `${JSON.stringify({ type: 6 })}${RS}`;
const CLIENT_PING_MS = 10_000;

export type Delivery = { id: string; at: number };

export type HubConsole = { ws: WebSocket; closed: boolean };

/** The consoles the bench holds, and every `user created` delivery they heard. */
export class ConsolePool {
  readonly consoles: HubConsole[] = [];
  deliveries: Delivery[] = [];
  /** Connections the server ended while held (a close message or a dropped socket). */
  lost = 0;
  /** Failed attempts to open a console (tried again), by reason. */
  readonly openFailures: Record<string, number> = {};
  private readonly pinger = setInterval(() => {
    for (const c of this.consoles) if (!c.closed) c.ws.send(PING);
  }, CLIENT_PING_MS).unref();

  constructor(
    private readonly port: number,
    private readonly host: string,
  ) {}

  /** Negotiates and opens one WebSocket console with `cookie`; resolves after the handshake answer. */
  async open(cookie: string): Promise<void> {
    const negotiated = await expectStatus(200, { port: this.port, host: this.host, method: 'POST', path: '/signalr/ui/negotiate?negotiateVersion=1', cookie });
    const { connectionToken } = negotiated.json<{ connectionToken: string }>();
    const ws = new WebSocket(`ws://127.0.0.1:${this.port}/signalr/ui?id=${encodeURIComponent(connectionToken)}`, {
      // As a console page's upgrade: the hub refuses a cookie without an origin header (lib/web/csrf.ts).
      headers: { host: this.host, cookie, 'sec-fetch-site': 'same-origin' },
      perMessageDeflate: false,
    });
    const c: HubConsole = { ws, closed: false };
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
      ws.once('open', () => ws.send(HANDSHAKE));
      ws.once('message', (data: Buffer) => {
        const text = data.toString('utf8');
        if (text === `{}${RS}`) resolve();
        else reject(new Error(`handshake answered ${text}`));
      });
    }).catch((e: unknown) => {
      ws.terminate();
      throw e;
    });
    ws.on('message', (data: Buffer) => this.read(data.toString('utf8')));
    ws.on('error', () => undefined); // the close that follows is what counts
    ws.once('close', () => {
      if (!c.closed) this.lost++;
      c.closed = true;
    });
    this.consoles.push(c);
  }

  /** Opens `n` consoles over `cookies` (each used for `perCookie` connections), `concurrency` at a time. */
  async openMany(n: number, cookies: readonly string[], perCookie: number, concurrency: number): Promise<number> {
    const started = performance.now();
    let last = started;
    let opened = 0;
    await mapLimit(
      Array.from({ length: n }, (_, i) => i),
      concurrency,
      async (i) => {
        // A loaded machine resets a connection now and then: tried again (3 attempts), and counted.
        for (let attempt = 1; ; attempt++) {
          try {
            await this.open(cookies[Math.floor(i / perCookie)]);
            break;
          } catch (e) {
            const reason = e instanceof Error ? e.message.slice(0, 80) : String(e);
            this.openFailures[reason] = (this.openFailures[reason] ?? 0) + 1;
            if (attempt === 3) throw e;
            // A negotiated connection left unclaimed still counts against its session's 20 until
            // the server drops it (15 s, swept every 2 s).
            await new Promise((r) => setTimeout(r, 18_000));
          }
        }
        opened++;
        if (performance.now() - last > 10_000) {
          last = performance.now();
          progress(`  ${opened}/${n} hub connections open`);
        }
      },
    );
    return (performance.now() - started) / 1000;
  }

  /** Closes consoles (the newest first) until `keep` are open; waits for their close handshakes. */
  async closeDownTo(keep: number): Promise<void> {
    const closing: Promise<void>[] = [];
    while (this.consoles.length > keep) {
      const c = this.consoles.pop();
      if (!c || c.closed) continue;
      c.closed = true;
      closing.push(new Promise<void>((resolve) => c.ws.once('close', () => resolve())));
      c.ws.close(1000);
    }
    await Promise.race([Promise.all(closing), new Promise((r) => setTimeout(r, 15_000))]);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.pinger);
    await this.closeDownTo(0);
  }

  private read(text: string): void {
    if (!text.includes('"changed"')) return; // pings, and nothing else is sent to an idle console
    const at = performance.now();
    for (const record of text.split(RS)) {
      if (!record) continue;
      const m = JSON.parse(record) as { type?: number; target?: string; arguments?: { Resource?: string; Action?: string; Id?: string }[] };
      const change = m.arguments?.[0];
      if (m.type === 1 && m.target === 'changed' && change?.Resource === 'user' && change.Action === 'created' && change.Id)
        this.deliveries.push({ id: change.Id, at });
    }
  }
}

export type DeliveryMeasurement = {
  label: string;
  consoles: number;
  changes: number;
  /** Deliveries expected (changes × consoles) and heard. */
  expected: number;
  delivered: number;
  /** Deliveries per second, from the first change's request to the last delivery. */
  perSecond: number;
  /** Changes made per second (the API's rate: it bounds the delivery rate). */
  changesPerSecond: number;
  /** The API's answer time of the change. */
  answerP50: number;
  /** Delay to each delivery from the change's request start, and from its answer (may be < 0: delivery does not wait for the answer). */
  fromStart: { p50: number; p99: number };
  fromAnswer: { p50: number; p99: number };
  lost: number;
};

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Makes `changes` changes (users created over the admin API of `apiPort`, `concurrency` in flight)
 * while `pool` listens, then waits until every console heard every change (or 15 s of silence).
 */
export async function measureDeliveries(
  label: string,
  pool: ConsolePool,
  api: { port: number; host: string; cookie: string },
  changes: number,
  concurrency: number,
): Promise<DeliveryMeasurement> {
  const consoles = pool.consoles.filter((c) => !c.closed).length;
  const lostBefore = pool.lost;
  pool.deliveries = [];
  const tag = Math.random().toString(36).slice(2, 8);
  const made = new Map<string, { start: number; answer: number }>();
  const started = performance.now();
  await mapLimit(
    Array.from({ length: changes }, (_, i) => i),
    concurrency,
    async (i) => {
      const start = performance.now();
      const r = await expectStatus(201, {
        port: api.port,
        host: api.host,
        method: 'POST',
        path: '/api/user',
        cookie: api.cookie,
        body: { UserName: `hub-${tag}-${i}`, Email: `hub-${tag}-${i}@bench.test` },
      });
      made.set(r.json<{ Id: string }>().Id, { start, answer: performance.now() });
    },
  );
  const madeSeconds = (performance.now() - started) / 1000;
  const expected = changes * consoles;
  let heard = pool.deliveries.length;
  let quietSince = performance.now();
  while (pool.deliveries.length < expected && performance.now() - quietSince < 15_000) {
    await new Promise((r) => setTimeout(r, 100));
    if (pool.deliveries.length !== heard) {
      heard = pool.deliveries.length;
      quietSince = performance.now();
    }
  }
  const ours = pool.deliveries.filter((d) => made.has(d.id));
  const fromStart: number[] = [];
  const fromAnswer: number[] = [];
  let lastAt = started;
  for (const d of ours) {
    const m = made.get(d.id);
    if (!m) continue;
    fromStart.push(d.at - m.start);
    fromAnswer.push(d.at - m.answer);
    lastAt = Math.max(lastAt, d.at);
  }
  fromStart.sort((a, b) => a - b);
  fromAnswer.sort((a, b) => a - b);
  const answers = [...made.values()].map((m) => m.answer - m.start).sort((a, b) => a - b);
  return {
    label,
    consoles,
    changes,
    expected,
    delivered: ours.length,
    perSecond: ours.length / ((lastAt - started) / 1000),
    changesPerSecond: changes / madeSeconds,
    answerP50: percentile(answers, 50),
    fromStart: { p50: percentile(fromStart, 50), p99: percentile(fromStart, 99) },
    fromAnswer: { p50: percentile(fromAnswer, 50), p99: percentile(fromAnswer, 99) },
    lost: pool.lost - lostBefore,
  };
}
