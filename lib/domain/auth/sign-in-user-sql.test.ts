import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as GlobalDb from '../../db/global-db';
import type * as RealmDatabases from '../../db/realm-databases';
import type * as RealmPool from '../../db/realm-pool';
import type * as SignInUserSql from './sign-in-user-sql';
import { postgresReachable, useTempStores } from '../../testing/temp-stores';

// The sign-in user statements (sign-in-user-sql.ts) against real databases: they answer what Prisma
// reads of the same rows, and count only the user's own passkeys.

const pgUp = await postgresReachable('PostgreSQL sign-in user statement tests');
const targets = [{ name: 'sqlite' as const }, ...(pgUp ? [{ name: 'postgresql' as const }] : [])];

describe.each(targets)('sign-in user statements on $name', ({ name }) => {
  let stores: Awaited<ReturnType<typeof useTempStores>>;
  let m: { pool: typeof RealmPool; dbs: typeof RealmDatabases; globalDb: typeof GlobalDb; sql: typeof SignInUserSql };
  let database: string;

  beforeAll(async () => {
    stores = await useTempStores(name);
    vi.resetModules();
    m = {
      pool: await import('../../db/realm-pool'),
      dbs: await import('../../db/realm-databases'),
      globalDb: await import('../../db/global-db'),
      sql: await import('./sign-in-user-sql'),
    };
    database = m.dbs.realmDatabaseName(randomUUID());
    await m.dbs.createRealmDatabase(database);
  });

  afterAll(async () => {
    await m.pool.closeAllRealmDbs();
    await m.globalDb.closeGlobalDb();
    await m.dbs.dropRealmDatabase(database);
    await stores.restore();
  });

  async function person(passkeys: number, over: Record<string, unknown> = {}) {
    const db = await m.pool.getRealmDb(database);
    const id = randomUUID();
    const tag = id.slice(0, 8);
    await db.user.create({
      data: {
        id,
        userName: `Person-${tag}`,
        userNameNormalized: `PERSON-${tag}`,
        email: `p-${tag}@example.test`,
        emailNormalized: `P-${tag}@EXAMPLE.TEST`,
        securityStamp: 's',
        passwordHash: `$argon2id$fake-${tag}`,
        ...over,
      },
    });
    for (let i = 0; i < passkeys; i++)
      await db.passkey.create({
        data: { id: randomUUID(), userId: id, credentialId: randomUUID(), publicKey: 'pk', rpId: 'example.test', displayName: `key ${i}` },
      });
    return { id, userNameNormalized: `PERSON-${tag}`, emailNormalized: `P-${tag}@EXAMPLE.TEST` };
  }

  it('finds a person by user name or e-mail with their facts, counting their own passkeys only', async () => {
    const db = await m.pool.getRealmDb(database);
    const due = new Date(Date.UTC(2031, 2, 3, 4, 5, 6, 7));
    const a = await person(2, { twoFactorEnabled: true, twoFactorPolicy: 'Required', secureSetupDueAt: due });
    await person(3);
    const viaPrisma = await db.user.findUniqueOrThrow({
      where: { id: a.id },
      select: { id: true, userName: true, twoFactorEnabled: true, twoFactorPolicy: true, secureSetupDueAt: true, passwordHash: true },
    });
    const { passwordHash, ...facts } = viaPrisma;
    const expected = { facts: { ...facts, passkeys: 2 }, passwordHash, isActive: true, deletedAt: null };
    expect(await m.sql.findPasswordSignInUser(db, a.userNameNormalized, 'nobody@example.test')).toEqual(expected);
    expect(await m.sql.findPasswordSignInUser(db, 'NOBODY', a.emailNormalized)).toEqual(expected);
    expect(await m.sql.findUserFacts(db, a.id)).toEqual(expected.facts);
    expect(await m.sql.findPasswordSignInUser(db, 'NOBODY', 'NOBODY@EXAMPLE.TEST')).toBeNull();
    expect(await m.sql.findUserFacts(db, randomUUID())).toBeNull();
  });

  it('answers an inactive, deleted, passwordless person as they are', async () => {
    const db = await m.pool.getRealmDb(database);
    const gone = new Date(Date.UTC(2031, 5, 6));
    const b = await person(0, { isActive: false, deletedAt: gone, passwordHash: null });
    expect(await m.sql.findPasswordSignInUser(db, b.userNameNormalized, b.emailNormalized)).toMatchObject({
      facts: { id: b.id, twoFactorEnabled: false, twoFactorPolicy: 'Default', secureSetupDueAt: null, passkeys: 0 },
      passwordHash: null,
      isActive: false,
      deletedAt: gone,
    });
  });
});
