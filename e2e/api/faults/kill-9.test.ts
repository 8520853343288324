import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, hostHeader, realmWithAdmin, type CreatedRealm, type SignedIn } from '../support/harness';
import { startInstance, stopInstances } from '../support/instances';

// kill -9 under load (issue 14 item 7): an instance on the suite's own store creates users as fast
// as four workers ask, and is killed with SIGKILL mid-stream. Every creation it acknowledged (201)
// must be in the store afterwards, read through the suite's server and through a new instance
// started on the same store; a creation in flight may or may not have committed, but nothing
// acknowledged is lost and the store serves on.

let realm: CreatedRealm & { admin: SignedIn };

beforeAll(async () => {
  realm = await realmWithAdmin();
}, 120_000);

afterAll(async () => {
  await stopInstances();
});

describe('an instance killed with SIGKILL under load', () => {
  it('loses no acknowledged write', async () => {
    const victim = await startInstance('kill-9', { env: { GATEHOUSE_RATE_LIMIT_SCALE: '0' } });
    const host = hostHeader(realm.domain, victim.port);
    const acknowledged: string[] = [];
    let sent = 0;
    let running = true;
    const workers = Array.from({ length: 4 }, async (_, w) => {
      while (running) {
        const n = sent++;
        const res = await api(host, 'POST', '/api/user', {
          port: victim.port,
          cookie: realm.admin.jar,
          body: { UserName: `k9-${w}-${n}`, Email: `k9-${w}-${n}@example.test` },
          timeoutMs: 5_000,
        }).catch(() => null);
        if (!res) break; // the connection died with the instance
        if (res.status === 201) acknowledged.push(res.body.Id as string);
      }
    });
    // Let it take writes for a while, then kill it where it stands.
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 50));
    process.kill(-victim.pid, 'SIGKILL');
    running = false;
    await Promise.all(workers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);

    const readAll = async (port?: number) => {
      const on = port ? hostHeader(realm.domain, port) : realm.host;
      const missing: string[] = [];
      for (const id of acknowledged) {
        const res = await api(on, 'GET', `/api/user/${id}`, { ...(port ? { port } : {}), cookie: realm.admin.jar });
        if (res.status !== 200) missing.push(`${id}: ${res.status}`);
      }
      return missing;
    };
    expect(await readAll()).toEqual([]);
    const successor = await startInstance('after-kill-9');
    expect((await api(hostHeader(realm.domain, successor.port), 'GET', '/health/ready', { port: successor.port })).status).toBe(200);
    expect(await readAll(successor.port)).toEqual([]);
  }, 180_000);
});
