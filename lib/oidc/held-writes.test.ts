import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Adapter from './adapter';
import type * as DriverHandle from '../db/driver-handle';
import type * as GlobalDb from '../db/global-db';
import type * as RealmDatabases from '../db/realm-databases';
import type * as RealmPool from '../db/realm-pool';
import type { RealmRecord } from '../realm/realm-record';
import { holdAnswerFor, holdCommit, ownWritesCommitted } from './held-writes';
import { useTempStores } from '../testing/temp-stores';

// A request's engine writes, held for its answer (held-writes.ts): the engine goes on before they
// commit, its answer waits for all of them, and the request reads what it wrote.

/** A promise settled from outside, and whether it has settled. */
function pending() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('held writes', () => {
  it('are not held outside a request: the caller waits for its own write', () => {
    expect(holdCommit(Promise.resolve())).toBe(false);
    expect(ownWritesCommitted()).toBeUndefined();
  });

  it('let the engine go on at once, and the answer waits until every one committed', async () => {
    const write = pending();
    let engineDone = false;
    let answered = false;
    const answer = holdAnswerFor(async () => {
      expect(holdCommit(write.promise)).toBe(true);
      engineDone = true;
    }).then((outcome) => {
      answered = true;
      return outcome;
    });
    await turn();
    expect(engineDone).toBe(true);
    expect(answered).toBe(false);
    write.resolve();
    expect(await answer).toEqual({});
  });

  it('make the answer a failure when one did not commit, without an unhandled rejection meanwhile', async () => {
    const boom = new Error('disk full');
    const outcome = await holdAnswerFor(async () => {
      holdCommit(Promise.resolve());
      holdCommit(Promise.reject(boom));
      await turn();
    });
    expect(outcome.failed).toBe(boom);
  });

  it('are waited for when the engine threw, and the engine error is what the caller sees', async () => {
    const write = pending();
    let settled = false;
    const answer = holdAnswerFor(async () => {
      holdCommit(write.promise);
      throw new Error('engine failed');
    }).finally(() => (settled = true));
    await turn();
    expect(settled).toBe(false);
    write.resolve();
    await expect(answer).rejects.toThrow('engine failed');
  });

  it("hold a read of the request back until its own writes committed, and not another request's", async () => {
    const mine = pending();
    const otherRequestSawNothing = holdAnswerFor(async () => {
      await turn();
      expect(ownWritesCommitted()).toBeUndefined();
    });
    const outcome = holdAnswerFor(async () => {
      holdCommit(mine.promise);
      const read = ownWritesCommitted();
      expect(read).toBeDefined();
      let readGoesOn = false;
      void read!.then(() => (readGoesOn = true));
      await turn();
      expect(readGoesOn).toBe(false);
      mine.resolve();
      await read;
      // Committed once: the next read does not wait again.
      expect(ownWritesCommitted()).toBeUndefined();
    });
    await otherRequestSawNothing;
    expect(await outcome).toEqual({});
  });

  it('hand a failed write to the read that waited for it, and to the answer', async () => {
    const boom = new Error('constraint');
    const outcome = await holdAnswerFor(async () => {
      holdCommit(Promise.reject(boom));
      await expect(ownWritesCommitted()).rejects.toBe(boom);
    });
    expect(outcome.failed).toBe(boom);
  });
});

describe("the engine adapter's writes held on SQLite", () => {
  let stores: Awaited<ReturnType<typeof useTempStores>>;
  let m: { adapter: typeof Adapter; pool: typeof RealmPool; dbs: typeof RealmDatabases; globalDb: typeof GlobalDb; handle: typeof DriverHandle };
  let databases: string[];

  beforeAll(async () => {
    process.env.GATEHOUSE_SECRET_KEY ??= randomBytes(32).toString('base64');
    stores = await useTempStores('sqlite');
    vi.resetModules();
    m = {
      adapter: await import('./adapter'),
      pool: await import('../db/realm-pool'),
      dbs: await import('../db/realm-databases'),
      globalDb: await import('../db/global-db'),
      handle: await import('../db/driver-handle'),
    };
    databases = [m.dbs.realmDatabaseName(randomUUID()), m.dbs.realmDatabaseName(randomUUID())];
    for (const d of databases) await m.dbs.createRealmDatabase(d);
  });

  afterAll(async () => {
    await m.pool.closeAllRealmDbs();
    await m.globalDb.closeGlobalDb();
    for (const d of databases) await m.dbs.dropRealmDatabase(d);
    await stores.restore();
  });

  function models(database: string) {
    const context: Adapter.AdapterContext = {
      realmId: database,
      db: () => m.pool.getRealmDb(database),
      dbIfOpen: () => m.pool.openRealmDb(database),
      realm: {} as RealmRecord,
    };
    const factory = m.adapter.realmAdapter(context);
    return (model: string) =>
      factory(model) as unknown as {
        upsert(id: string, payload: object, expiresIn?: number): Promise<void>;
        find(id: string): Promise<Record<string, unknown> | undefined>;
        consume(id: string): Promise<void>;
        destroy(id: string): Promise<void>;
        revokeByGrantId(grantId: string): Promise<void>;
      };
  }

  async function rowCount(database: string): Promise<number> {
    const driver = m.handle.driverOf(await m.pool.getRealmDb(database));
    if (driver?.kind !== 'sqlite') throw new Error('expected the SQLite driver');
    return Number((driver.db.prepare('SELECT count(*) AS n FROM "OidcPayload"').get() as { n: number | bigint }).n);
  }

  it('answer a write before it ran, read it back in the same request, and commit it before the answer', async () => {
    const [database] = databases;
    const adapter = models(database);
    await adapter('Grant').find('warm-up'); // the connection is open, so the count below is synchronous
    const before = await rowCount(database);
    const outcome = await holdAnswerFor(async () => {
      await adapter('AccessToken').upsert('token-1', { grantId: 'g1', accountId: 'a1', clientId: 'c1' }, 60);
      expect(await rowCount(database)).toBe(before); // not run yet: the engine went on
      expect(await adapter('AccessToken').find('token-1')).toMatchObject({ grantId: 'g1', jti: 'token-1' });
      await adapter('AccessToken').consume('token-1');
    });
    expect(outcome).toEqual({});
    expect(await rowCount(database)).toBe(before + 1);
    expect(await adapter('AccessToken').find('token-1')).toMatchObject({ consumed: expect.any(Number) });
  });

  it('leave what the same writes made one by one leave, and every read in between answers the same', async () => {
    type Op = { kind: 'upsert' | 'consume' | 'destroy' | 'find' | 'revoke'; id: 'a' | 'b' | 'c'; grant: 'g1' | 'g2' };
    const op = fc.record({
      kind: fc.constantFrom<Op['kind']>('upsert', 'consume', 'destroy', 'find', 'revoke'),
      id: fc.constantFrom<Op['id']>('a', 'b', 'c'),
      grant: fc.constantFrom<Op['grant']>('g1', 'g2'),
    });
    const [held, oneByOne] = databases.map(models);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const prefix = `r${run++}-`;
        const apply = async (adapter: ReturnType<typeof models>, o: Op) => {
          const model = adapter('RefreshToken');
          const id = prefix + o.id;
          if (o.kind === 'upsert') await model.upsert(id, { grantId: prefix + o.grant, accountId: 'a1', clientId: 'c1' }, 60);
          else if (o.kind === 'consume') await model.consume(id);
          else if (o.kind === 'destroy') await model.destroy(id);
          else if (o.kind === 'revoke') await model.revokeByGrantId(prefix + o.grant);
          else {
            const found = await model.find(id);
            return found ? { grantId: found.grantId, consumed: 'consumed' in found } : null;
          }
          return 'written';
        };
        const expected: unknown[] = [];
        for (const o of ops) expected.push(await apply(oneByOne, o));
        const seen: unknown[] = [];
        const outcome = await holdAnswerFor(async () => {
          for (const o of ops) seen.push(await apply(held, o));
        });
        expect(outcome).toEqual({});
        expect(seen).toEqual(expected);
        for (const id of ['a', 'b', 'c']) {
          const [h, o] = await Promise.all([held('RefreshToken').find(prefix + id), oneByOne('RefreshToken').find(prefix + id)]);
          expect(h ? { grantId: h.grantId, consumed: 'consumed' in h } : null).toEqual(o ? { grantId: o.grantId, consumed: 'consumed' in o } : null);
        }
      }),
      { numRuns: 40 },
    );
  });
});
