import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { METADATA_HOST_CERT, repoRoot } from './server-process';

// An https server on 127.0.0.1 that a test starts to publish OAuth Client ID Metadata Documents (or
// anything else) at paths it chooses. Its certificate is trusted by the test server only
// (tls/README.md), which also allows fetching from loopback (GATEHOUSE_OUTBOUND_ALLOW).

export type Published = { status?: number; headers?: Record<string, string>; body: string | Buffer; delayMs?: number };

export type MetadataHost = {
  origin: string;
  /** The https URL of a path on this host. */
  url(path: string): string;
  /** Publishes a JSON document (or a raw answer) at `path`. */
  publish(path: string, content: Record<string, unknown> | Published): void;
  /** How many requests `path` received. */
  hits(path: string): number;
  stop(): Promise<void>;
};

const isPublished = (c: Record<string, unknown> | Published): c is Published => typeof c.body === 'string' || Buffer.isBuffer(c.body);

export async function startMetadataHost(): Promise<MetadataHost> {
  const routes = new Map<string, Published>();
  const counts = new Map<string, number>();
  const server: Server = createServer(
    { cert: readFileSync(METADATA_HOST_CERT), key: readFileSync(join(repoRoot, 'e2e', 'api', 'support', 'tls', 'metadata-host.key.pem')) },
    (req, res) => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      counts.set(path, (counts.get(path) ?? 0) + 1);
      const answer = routes.get(path);
      if (!answer) {
        res.writeHead(404).end();
        return;
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-length': String(Buffer.byteLength(answer.body)), ...answer.headers });
        res.end(answer.body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    publish(path, content) {
      routes.set(
        path,
        isPublished(content)
          ? content
          : { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'max-age=60' }, body: JSON.stringify(content) },
      );
    },
    hits: (path) => counts.get(path) ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
