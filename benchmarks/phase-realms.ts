import type { RunningServer } from './launch-server';
import type { BenchOptions } from './options';
import type { Report } from './report';
import { createRealms, fleetRows, timeRealmCreates } from './scenario-realms';
import { progress } from './table';

// The realm part of a storage engine's run: timed sequential creates (realms 1..creates), the
// small-fleet measurement, bulk creation up to the fleet size, the large-fleet measurement.

const BULK_CONCURRENCY = 4;
const HOST_SAMPLE = 250;

export async function realmPhase(
  storage: string,
  server: RunningServer,
  cookie: string,
  o: BenchOptions,
  fleetSize: number,
  report: Report,
  checkpoint: (when: string) => Promise<void> = async () => undefined,
): Promise<void> {
  const load = { connections: o.connections, duration: o.duration, cpuMs: server.cpuMs };
  progress(`${storage}: timing ${o.creates} realm creations`);
  const timing = await timeRealmCreates(server.port, cookie, 1, o.creates);
  report.creates.push({ storage, timing });
  if (fleetSize <= 0) return;

  const first = Array.from({ length: o.creates }, (_, i) => i + 1);
  progress(`${storage}: fleet of ${first.length} realms`);
  const small = await fleetRows(server.port, cookie, first, {
    ...load,
    hostSample: first.length,
    sessionRealms: Math.min(first.length, o.sessionRealms),
    label: storage,
  });
  report.fleets.push({ storage, realms: first.length + 1, fleet: small, ...server.memory() });
  await checkpoint(`${first.length + 1} realms, after the measurements`);

  if (fleetSize <= o.creates) return;
  progress(`${storage}: creating realms ${o.creates + 1}..${fleetSize} (${BULK_CONCURRENCY} at a time)`);
  const bulk = await createRealms(server.port, cookie, o.creates + 1, fleetSize, BULK_CONCURRENCY);
  const all = [...first, ...bulk.numbers];
  await checkpoint(`${all.length + 1} realms, right after bulk creation`);
  progress(`${storage}: fleet of ${all.length} realms`);
  const large = await fleetRows(server.port, cookie, all, { ...load, hostSample: HOST_SAMPLE, sessionRealms: o.sessionRealms, label: storage });
  report.fleets.push({ storage, realms: all.length + 1, fleet: large, ...server.memory(), bulk });
  await checkpoint(`${all.length + 1} realms, after the measurements`);
}
