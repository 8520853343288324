import dns from 'node:dns';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';

// The unchanged `@microsoft/signalr` client in Node, for the hub tests: cookie-authenticated, over one
// chosen transport, recording every `changed` message and how the connection ended.

// Node does not resolve *.localhost (the realms' test domains); browsers do. Names under .localhost
// go to 127.0.0.1, as a browser would send them, everything else resolves as usual.
const lookup = dns.lookup;
if (!(lookup as { hubPatched?: boolean }).hubPatched) {
  const patched = ((hostname: string, ...rest: unknown[]) =>
    (lookup as (...a: unknown[]) => void)(hostname.endsWith('.localhost') ? '127.0.0.1' : hostname, ...rest)) as typeof dns.lookup;
  (patched as { hubPatched?: boolean }).hubPatched = true;
  dns.lookup = patched;
}

export const TRANSPORTS = [
  ['WebSockets', HttpTransportType.WebSockets],
  ['ServerSentEvents', HttpTransportType.ServerSentEvents],
  ['LongPolling', HttpTransportType.LongPolling],
] as const;

export type Changed = { Resource: string; Action: string; Id?: string };

export type TestHub = {
  connection: HubConnection;
  received: Changed[];
  /** Settles with the close error (or undefined) when the connection ends. */
  closed: Promise<Error | undefined>;
  stop(): Promise<void>;
};

/**
 * Connects to `http://<host>/signalr/ui` with the cookie over one transport. The Origin is the page's,
 * as a browser sends it: the hub refuses cookie-carrying writes and upgrades without one. A hub
 * reached at one instance's own port, not the realm's public one, takes the realm's `origin`.
 */
export async function connectHub(host: string, cookie: string, transport: HttpTransportType, origin = `http://${host}`): Promise<TestHub> {
  const connection = new HubConnectionBuilder()
    .withUrl(`http://${host}/signalr/ui`, { transport, headers: { Cookie: cookie, Origin: origin } })
    .configureLogging(LogLevel.None)
    .build();
  const received: Changed[] = [];
  connection.on('changed', (change: Changed) => received.push(change));
  const closed = new Promise<Error | undefined>((resolve) => connection.onclose((e) => resolve(e)));
  await connection.start();
  return { connection, received, closed, stop: () => connection.stop() };
}

/** Waits until a message matching `match` has arrived, or fails after `timeoutMs`. */
export async function waitFor(hub: TestHub, match: (c: Changed) => boolean, timeoutMs = 5_000): Promise<Changed> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = hub.received.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching changed message within ${timeoutMs} ms; got ${JSON.stringify(hub.received)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
