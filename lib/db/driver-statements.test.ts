import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as GlobalDb from './global-db';
import type * as OidcPayloadSql from './oidc-payload-sql';
import type * as RealmDatabases from './realm-databases';
import type * as RealmPool from './realm-pool';
import type * as DriverHandle from './driver-handle';
import { postgresReachable, useTempStores } from '../testing/temp-stores';

// The OAuth engine's storage in prepared statements on the realm's driver (oidc-payload-sql.ts), and
// the other statements run beside Prisma (docs/architecture.md "Data access" rule 4), against real
// databases: what it writes Prisma reads back identically (the purge, consent and
// remembered-client code read the same rows through Prisma), and the other way round.

const pgUp = await postgresReachable('PostgreSQL tests of the statements beside Prisma');
const targets = [{ name: 'sqlite' as const }, ...(pgUp ? [{ name: 'postgresql' as const }] : [])];

describe.each(targets)('statements beside Prisma on $name', ({ name }) => {
  let stores: Awaited<ReturnType<typeof useTempStores>>;
  let m: { pool: typeof RealmPool; dbs: typeof RealmDatabases; globalDb: typeof GlobalDb; sql: typeof OidcPayloadSql; handle: typeof DriverHandle };
  let database: string;

  beforeAll(async () => {
    stores = await useTempStores(name);
    vi.resetModules();
    m = {
      pool: await import('./realm-pool'),
      dbs: await import('./realm-databases'),
      globalDb: await import('./global-db'),
      sql: await import('./oidc-payload-sql'),
      handle: await import('./driver-handle'),
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

  /** A person in the realm's database, with `passkeys` passkeys; answers their id and normalized names. */
  async function person(passkeys = 0, over: Record<string, unknown> = {}) {
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
    return { id, userName: `Person-${tag}`, userNameNormalized: `PERSON-${tag}`, emailNormalized: `P-${tag}@EXAMPLE.TEST` };
  }

  const row = (over: Partial<OidcPayloadSql.PayloadWrite> = {}): OidcPayloadSql.PayloadWrite => ({
    model: 'RefreshToken',
    id: randomUUID(),
    payload: 'v1.sealed',
    grantId: `grant-${randomUUID()}`,
    userCode: null,
    uid: null,
    accountId: 'account-1',
    clientId: 'client-1',
    expiresAt: new Date(Date.UTC(2031, 0, 2, 3, 4, 5, 678)),
    ...over,
  });

  it('runs on the driver the pool connected, not through Prisma', async () => {
    const db = await m.pool.getRealmDb(database);
    expect(m.handle.driverOf(db)?.kind).toBe(name);
  });

  it('writes rows Prisma reads back exactly, and reads what Prisma wrote', async () => {
    const db = await m.pool.getRealmDb(database);
    const sql = m.sql.oidcPayloadSql(db);
    const now = new Date(Date.UTC(2030, 5, 6, 7, 8, 9, 10));
    const written = row();
    await sql.upsert(written, now);
    const seen = await db.oidcPayload.findUnique({ where: { model_id: { model: written.model, id: written.id } } });
    expect(seen).toMatchObject({ ...written, consumedAt: null, createdAt: now });

    await db.oidcPayload.create({ data: { model: 'Session', id: 'by-prisma', payload: 'p', uid: 'uid-1', expiresAt: written.expiresAt } });
    expect(await sql.find('Session', 'by-prisma')).toEqual({ payload: 'p', expiresAt: written.expiresAt, consumedAt: null });
    expect(await sql.findBy('Session', 'uid', 'uid-1')).toEqual({ payload: 'p', expiresAt: written.expiresAt, consumedAt: null });
    expect(await sql.find('Session', 'missing')).toBeNull();
    expect(await sql.findBy('Session', 'userCode', 'missing')).toBeNull();
  });

  it('upserts over an existing row (keeping its consumption), consumes, destroys and revokes by grant', async () => {
    const db = await m.pool.getRealmDb(database);
    const sql = m.sql.oidcPayloadSql(db);
    const first = row();
    await sql.upsert(first, new Date());
    const at = new Date(Date.UTC(2030, 1, 1, 0, 0, 0, 500));
    await sql.consume(first.model, first.id, at);
    await sql.upsert({ ...first, payload: 'v1.changed', expiresAt: null }, new Date());
    expect(await sql.find(first.model, first.id)).toEqual({ payload: 'v1.changed', expiresAt: null, consumedAt: at });
    // Prisma's date filters (the purge's) see the same instants.
    expect(await db.oidcPayload.count({ where: { id: first.id, consumedAt: { lt: new Date(at.getTime() + 1) } } })).toBe(1);

    const sibling = row({ grantId: first.grantId, model: 'AccessToken' });
    const other = row();
    await sql.upsert(sibling, new Date());
    await sql.upsert(other, new Date());
    await sql.revokeByGrantId(first.grantId!);
    expect(await sql.find(first.model, first.id)).toBeNull();
    expect(await sql.find(sibling.model, sibling.id)).toBeNull();
    expect(await sql.find(other.model, other.id)).not.toBeNull();
    await sql.destroy(other.model, other.id);
    expect(await sql.find(other.model, other.id)).toBeNull();
  });

  it('reads the claims user as Prisma does (claims-user-sql.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { CLAIMS_USER_SELECT, findClaimsUser } = await import('./claims-user-sql');
    const id = randomUUID();
    const tag = id.slice(0, 8);
    await db.user.create({
      data: {
        id,
        userName: `Claims-${tag}`,
        userNameNormalized: `claims-${tag}`,
        email: `claims-${tag}@example.test`,
        emailNormalized: `claims-${tag}@example.test`,
        emailConfirmed: true,
        firstname: 'Ada',
        acronym: 'AL',
        securityStamp: 'stamp',
        createdAt: new Date(Date.UTC(2030, 0, 1, 1, 2, 3, 4)),
        updatedAt: new Date(Date.UTC(2030, 0, 2, 1, 2, 3, 5)),
      },
    });
    const viaPrisma = await db.user.findUnique({ where: { id }, select: CLAIMS_USER_SELECT });
    expect(await findClaimsUser(db, id)).toEqual(viaPrisma);
    await db.user.update({ where: { id }, data: { isActive: false, emailConfirmed: false, deletedAt: new Date(Date.UTC(2030, 1, 1)) } });
    expect(await findClaimsUser(db, id)).toMatchObject({ isActive: false, emailConfirmed: false, deletedAt: new Date(Date.UTC(2030, 1, 1)), lastname: null });
    expect(await findClaimsUser(db, randomUUID())).toBeNull();
  });

  it('tells a live JWT from a revoked one or one whose grant ended, as Prisma did (lib/auth/jwt-access-tokens.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { GRANT_CLAIM, grantClaimValue, jwtStillLive, revokeJwt } = await import('../auth/jwt-access-tokens');
    const { sha256Hex } = await import('../crypto/tokens');
    const grant = async (expiresAt: Date | null) => {
      const id = randomUUID();
      await db.oidcPayload.create({ data: { model: 'Grant', id: grantClaimValue(id), payload: 'v1.sealed', expiresAt } });
      return grantClaimValue(id);
    };
    const future = new Date(Date.now() + 3600_000);
    const live = await grant(future);
    const open = await grant(null);
    const ended = await grant(new Date(Date.now() - 1000));
    const token = (g: string | null, jti: string | null = randomUUID()) => ({ ...(jti ? { jti } : {}), ...(g ? { [GRANT_CLAIM]: g } : {}) });
    expect(await jwtStillLive(db, token(live))).toBe(true);
    expect(await jwtStillLive(db, token(open))).toBe(true);
    expect(await jwtStillLive(db, token(null))).toBe(true);
    expect(await jwtStillLive(db, token(null, null))).toBe(true);
    expect(await jwtStillLive(db, token(ended))).toBe(false);
    expect(await jwtStillLive(db, token(grantClaimValue(randomUUID())))).toBe(false);
    // A revoked jti, written through Prisma: refused even though its grant is live.
    const jti = randomUUID();
    await db.revokedAccessToken.create({ data: { jtiHash: sha256Hex(jti), expiresAt: future } });
    expect(await jwtStillLive(db, token(live, jti))).toBe(false);
    expect(await jwtStillLive(db, token(null, jti))).toBe(false);
    // Revocation ends the grant for every other token of it.
    const other = token(open);
    await revokeJwt(db, { ...token(open), exp: Math.floor(future.getTime() / 1000) });
    expect(await jwtStillLive(db, other)).toBe(false);
  });

  it('answers the live client facts findLiveClient answers (lib/domain/oauth-clients/live-client.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { findLiveClient, findLiveClientFacts } = await import('../domain/oauth-clients/live-client');
    const client = async (over: Record<string, unknown> = {}) => {
      const id = randomUUID();
      await db.oAuthClient.create({
        data: { id, clientId: `c-${id}`, displayName: 'C', clientType: 'Confidential', capabilities: '["cap:x"]', appId: null, ...over },
      });
      return { id, clientId: `c-${id}` };
    };
    const account = async (isActive: boolean) => {
      const id = randomUUID();
      await db.serviceAccount.create({ data: { id, name: `sa-${id}`, nameNormalized: `SA-${id}`, isActive } });
      return id;
    };
    const expected = async (clientId: string) => {
      const live = await findLiveClient(db, clientId);
      if (!live) return null;
      const { appId, serviceAccountId, capabilities } = live.row;
      return { appId, serviceAccountId, capabilities, serviceAccountName: live.serviceAccountName, secretExpiresAt: live.secretExpiresAt };
    };
    const plain = await client({ appId: 'app-1' });
    const inactive = await client({ isActive: false });
    const activeAccount = await account(true);
    const credentialed = await client({ serviceAccountId: activeAccount });
    const expiresAt = new Date(Date.UTC(2031, 5, 6, 7, 8, 9, 10));
    await db.serviceAccountCredential.create({ data: { id: randomUUID(), serviceAccountId: activeAccount, oauthClientId: credentialed.id, expiresAt } });
    const withoutCredential = await client({ serviceAccountId: activeAccount });
    const idleAccount = await account(false);
    const ofIdleAccount = await client({ serviceAccountId: idleAccount });
    await db.serviceAccountCredential.create({ data: { id: randomUUID(), serviceAccountId: idleAccount, oauthClientId: ofIdleAccount.id } });
    for (const c of [plain, inactive, credentialed, withoutCredential, ofIdleAccount, { clientId: 'no-such-client' }])
      expect(await findLiveClientFacts(db, c.clientId), c.clientId).toEqual(await expected(c.clientId));
    expect(await findLiveClientFacts(db, plain.clientId)).toMatchObject({ appId: 'app-1', capabilities: '["cap:x"]', secretExpiresAt: null });
    expect(await findLiveClientFacts(db, credentialed.clientId)).toMatchObject({ serviceAccountId: activeAccount, secretExpiresAt: expiresAt });
    expect(await findLiveClientFacts(db, inactive.clientId)).toBeNull();
    expect(await findLiveClientFacts(db, withoutCredential.clientId)).toBeNull();
    expect(await findLiveClientFacts(db, ofIdleAccount.clientId)).toBeNull();
  });

  it('reads a session with its user as Prisma does (lib/domain/sessions/session-sql.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { SESSION_WITH_USER_SELECT, findSessionWithUser } = await import('../domain/sessions/session-sql');
    const { id: userId, userName } = await person();
    const tokenHash = `hash-${randomUUID()}`;
    await db.session.create({
      data: {
        id: randomUUID(),
        tokenHash,
        userId,
        amr: '["pwd","otp"]',
        createdAt: new Date(Date.UTC(2030, 0, 1, 1, 2, 3, 4)),
        lastSeenAt: new Date(Date.UTC(2030, 0, 1, 2, 2, 3, 5)),
        expiresAt: new Date(Date.UTC(2030, 0, 2, 1, 2, 3, 6)),
      },
    });
    const viaPrisma = () => db.session.findUnique({ where: { tokenHash }, select: SESSION_WITH_USER_SELECT });
    expect(await findSessionWithUser(db, tokenHash)).toEqual(await viaPrisma());
    expect((await findSessionWithUser(db, tokenHash))?.user).toEqual({ userName, isActive: true, deletedAt: null });
    await db.session.update({ where: { tokenHash }, data: { revokedAt: new Date(Date.UTC(2030, 0, 1, 3)) } });
    await db.user.update({ where: { id: userId }, data: { isActive: false, deletedAt: new Date(Date.UTC(2030, 1, 1)) } });
    const revoked = await findSessionWithUser(db, tokenHash);
    expect(revoked).toEqual(await viaPrisma());
    expect(revoked).toMatchObject({ revokedAt: new Date(Date.UTC(2030, 0, 1, 3)), user: { isActive: false, deletedAt: new Date(Date.UTC(2030, 1, 1)) } });
    expect(await findSessionWithUser(db, 'no-such-hash')).toBeNull();
  });

  it('writes a session, and its user’s last sign-in with it, as Prisma reads them (lib/domain/sessions/session-sql.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { insertSession } = await import('../domain/sessions/session-sql');
    const { id: userId } = await person();
    const at = new Date(Date.UTC(2030, 3, 4, 5, 6, 7, 89));
    const session = {
      id: randomUUID(),
      tokenHash: `hash-${randomUUID()}`,
      userId,
      amr: '["pwd"]',
      ipAddress: '203.0.113.9',
      userAgent: 'agent',
      createdAt: at,
      lastSeenAt: at,
      expiresAt: new Date(at.getTime() + 3_600_000),
      loginProviderId: 'provider-1',
      upstreamIdTokenEncrypted: 'v1.sealed',
    };
    await insertSession(db, session, { touchLastLogin: true });
    expect(await db.session.findUnique({ where: { id: session.id } })).toEqual({ ...session, revokedAt: null });
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).lastLoginAt).toEqual(at);

    // Without the touch, and without the optional columns: the last sign-in stays.
    const bare = {
      id: randomUUID(),
      tokenHash: `hash-${randomUUID()}`,
      userId,
      amr: '["hwk"]',
      createdAt: new Date(at.getTime() + 1000),
      lastSeenAt: at,
      expiresAt: at,
    };
    await insertSession(db, bare);
    expect(await db.session.findUnique({ where: { id: bare.id } })).toMatchObject({ ...bare, ipAddress: null, userAgent: null, loginProviderId: null });
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).lastLoginAt).toEqual(at);

    // A user that does not exist: nothing is written.
    const orphan = { ...bare, id: randomUUID(), tokenHash: `hash-${randomUUID()}`, userId: randomUUID() };
    await expect(insertSession(db, orphan, { touchLastLogin: true })).rejects.toThrow();
    expect(await db.session.findUnique({ where: { id: orphan.id } })).toBeNull();
  });

  it('writes a sign-in’s security-log entry in the session’s transaction: both or neither (lib/domain/sessions/session-sql.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { insertSession } = await import('../domain/sessions/session-sql');
    const { id: userId } = await person();
    const at = new Date(Date.UTC(2030, 4, 5, 6, 7, 8, 9));
    const sessionOf = (user: string) => ({
      id: randomUUID(),
      tokenHash: `hash-${randomUUID()}`,
      userId: user,
      amr: '["pwd"]',
      createdAt: at,
      lastSeenAt: at,
      expiresAt: at,
    });
    const entryOf = () => ({
      id: randomUUID(),
      createdAt: at,
      category: 'Authentication',
      eventType: 'auth.login-succeeded',
      success: true,
      userId,
      userName: 'Ada',
      ipAddress: '198.51.100.8',
      userAgent: 'agent',
      detail: '{"method":"pwd"}',
    });
    for (const touchLastLogin of [true, false]) {
      const session = sessionOf(userId);
      const entry = entryOf();
      await insertSession(db, session, { touchLastLogin, logEntry: entry });
      expect(await db.session.findUnique({ where: { id: session.id } })).toMatchObject(session);
      expect(await db.authLogEvent.findUnique({ where: { id: entry.id } })).toEqual(entry);
    }
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).lastLoginAt).toEqual(at);

    // The session cannot be written (no such user): the entry is not written either, with or without the touch.
    for (const touchLastLogin of [true, false]) {
      const orphan = sessionOf(randomUUID());
      const entry = entryOf();
      await expect(insertSession(db, orphan, { touchLastLogin, logEntry: entry })).rejects.toThrow();
      expect(await db.session.findUnique({ where: { id: orphan.id } })).toBeNull();
      expect(await db.authLogEvent.findUnique({ where: { id: entry.id } })).toBeNull();
    }
  });

  it('writes a security-log entry as Prisma reads it (lib/domain/audit/security-log-sql.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { insertSecurityLogEntry } = await import('../domain/audit/security-log-sql');
    const full = {
      id: randomUUID(),
      createdAt: new Date(Date.UTC(2030, 6, 7, 8, 9, 10, 11)),
      category: 'Authentication',
      eventType: 'auth.login-failed',
      success: false,
      userId: randomUUID(),
      userName: 'Ada',
      ipAddress: '198.51.100.7',
      userAgent: 'agent',
      detail: '{"reason":"bad-password"}',
    };
    const bare = { ...full, id: randomUUID(), success: true, userId: null, userName: null, ipAddress: null, userAgent: null, detail: null };
    for (const entry of [full, bare]) {
      await insertSecurityLogEntry(db, entry);
      expect(await db.authLogEvent.findUnique({ where: { id: entry.id } })).toEqual(entry);
    }
  });

  it('finds the person a sign-in is about, with their facts, counting their own passkeys only (lib/domain/auth/sign-in-user-sql.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { findPasswordSignInUser, findUserFacts } = await import('../domain/auth/sign-in-user-sql');
    const due = new Date(Date.UTC(2031, 2, 3, 4, 5, 6, 7));
    const a = await person(2, { twoFactorEnabled: true, twoFactorPolicy: 'Required', secureSetupDueAt: due });
    await person(3);
    const viaPrisma = await db.user.findUniqueOrThrow({
      where: { id: a.id },
      select: { id: true, userName: true, twoFactorEnabled: true, twoFactorPolicy: true, secureSetupDueAt: true, passwordHash: true },
    });
    const { passwordHash, ...facts } = viaPrisma;
    const expected = { facts: { ...facts, passkeys: 2 }, passwordHash, isActive: true, deletedAt: null };
    expect(await findPasswordSignInUser(db, a.userNameNormalized, 'nobody@example.test')).toEqual(expected);
    expect(await findPasswordSignInUser(db, 'NOBODY', a.emailNormalized)).toEqual(expected);
    expect(await findUserFacts(db, a.id)).toEqual(expected.facts);
    expect(await findPasswordSignInUser(db, 'NOBODY', 'NOBODY@EXAMPLE.TEST')).toBeNull();
    expect(await findUserFacts(db, randomUUID())).toBeNull();
  });

  it('prefers the user-name match over the e-mail match, in SQL and in the Prisma fallback alike (lib/domain/auth/sign-in-user-sql.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { findPasswordSignInUser } = await import('../domain/auth/sign-in-user-sql');
    // A name equal to another person's address (no write lets one in now; an old realm may hold it),
    // the address's owner stored first and then last, so that row order cannot decide.
    for (const ownerFirst of [true, false]) {
      const shared = `SHARED-${randomUUID().slice(0, 8)}@EXAMPLE.TEST`;
      const make = (over: Record<string, unknown>) => person(0, over);
      const owner = ownerFirst ? await make({ emailNormalized: shared }) : undefined;
      const named = await make({ userNameNormalized: shared });
      const owner2 = owner ?? (await make({ emailNormalized: shared }));
      const sql = await findPasswordSignInUser(db, shared, shared);
      const viaPrisma = await db.$transaction((tx) => findPasswordSignInUser(tx as unknown as typeof db, shared, shared));
      expect(sql?.facts.id).toBe(named.id);
      expect(viaPrisma).toEqual(sql);
      // Only the address matches: its owner, both ways.
      expect((await findPasswordSignInUser(db, 'NOBODY', shared))?.facts.id).toBe(owner2.id);
      expect((await db.$transaction((tx) => findPasswordSignInUser(tx as unknown as typeof db, 'NOBODY', shared)))?.facts.id).toBe(owner2.id);
    }
  });

  it('answers an inactive, deleted, passwordless person as they are (lib/domain/auth/sign-in-user-sql.ts)', async () => {
    const db = await m.pool.getRealmDb(database);
    const { findPasswordSignInUser } = await import('../domain/auth/sign-in-user-sql');
    const gone = new Date(Date.UTC(2031, 5, 6));
    const b = await person(0, { isActive: false, deletedAt: gone, passwordHash: null });
    expect(await findPasswordSignInUser(db, b.userNameNormalized, b.emailNormalized)).toMatchObject({
      facts: { id: b.id, twoFactorEnabled: false, twoFactorPolicy: 'Default', secureSetupDueAt: null, passkeys: 0 },
      passwordHash: null,
      isActive: false,
      deletedAt: gone,
    });
  });
});
