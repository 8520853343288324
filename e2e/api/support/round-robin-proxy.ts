import { connect, createServer, type Server, type Socket } from 'node:net';

// The load balancer of the several-instances runs (GATEHOUSE_TEST_INSTANCES=2): a TCP proxy on one
// port that hands each new connection to the next instance in turn. The tests' HTTP client opens a
// connection per request, so consecutive requests of a test land on different instances: a session
// made on one is used on the other, a refresh token issued by one is redeemed by the other.

export type RoundRobinProxy = { port: number; connectionsPerTarget(): number[]; close(): Promise<void> };

export async function startRoundRobinProxy(targets: number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const counts = targets.map(() => 0);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const index = next++ % targets.length;
    counts[index]++;
    const upstream = connect({ host: '127.0.0.1', port: targets[index] });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    // Either side ending or failing ends the other: a killed instance looks like a dropped connection.
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Every address, as the servers listen: realm hosts (`<slug>.localhost`) resolve to loopback
    // addresses other than 127.0.0.1 for the instances' own outbound calls (an upstream realm's discovery).
    server.listen(0, '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    connectionsPerTarget: () => [...counts],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
