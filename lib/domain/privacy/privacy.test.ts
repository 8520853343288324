import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealmDb } from '../../db/types';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { unitRealm } from '../../testing/unit-realm';
import { unzip } from '../../testing/unzip';
import { ARCHIVE_ENTRIES, exportArchive, type ArchiveOutcome } from './export-archive';
import { finishDeletion, finishInterruptedDeletions } from './finish-deletion';
import { maskAccount, placeholderEmail, placeholderUserName, removeLinkedRecords } from './mask-account';
import { readPersonalData } from './personal-data';
import { redactDetail, scrubSecurityLog, signInNames } from './scrub-security-log';

// The export builder, the masking and the log scrubbing against a real realm database: a person
// with every kind of personal data, credential material with recognisable values, and more
// security-log entries than one page holds.

let db: RealmDb;
let dispose: () => Promise<void>;
let realm: ReturnType<typeof unitRealm>;

/** Values of credential columns: none may ever appear in an archive. */
const SECRETS = {
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$SECRET-PASSWORD-HASH',
  tokenHash: 'secret-session-token-hash-0001',
  upstream: 'sealed-upstream-id-token-0001',
  publicKey: 'PASSKEY-PUBLIC-KEY-MATERIAL',
  credentialId: 'PASSKEY-CREDENTIAL-ID-0001',
  totp: 'sealed-totp-secret-0001',
  emailToken: 'change-request-email-token-hash-0001',
  secretHash: 'one-time-secret-hash-0001',
  jti: 'sealed:grant-jti-0001',
  securityStamp: 'SECURITY-STAMP-0001',
};
const LOG_ENTRIES = 1_234;

async function seedPerson(id: string, userName: string, email: string): Promise<void> {
  await db.user.create({
    data: {
      id,
      userName,
      userNameNormalized: userName.toLowerCase(),
      email,
      emailNormalized: email.toLowerCase(),
      firstname: 'Ada',
      lastname: 'Lovelace',
      passwordHash: SECRETS.passwordHash,
      securityStamp: SECRETS.securityStamp,
    },
  });
  await db.session.create({
    data: {
      id: `${id}-s1`,
      userId: id,
      tokenHash: `${SECRETS.tokenHash}-${id}`,
      expiresAt: new Date(Date.now() + 3600_000),
      ipAddress: '203.0.113.7',
      userAgent: 'Firefox/Ada',
      upstreamIdTokenEncrypted: SECRETS.upstream,
    },
  });
  await db.passkey.create({
    data: { id: `${id}-pk`, userId: id, credentialId: `${SECRETS.credentialId}-${id}`, publicKey: SECRETS.publicKey, rpId: 'unit.test', displayName: 'My key' },
  });
  await db.totpAuthenticator.create({ data: { userId: id, secretEncrypted: SECRETS.totp, confirmedAt: new Date() } });
  const provider = await db.loginProvider.upsert({ where: { id: 'lp' }, create: { id: 'lp', name: 'Upstream', flavor: 'Oidc' }, update: {} });
  await db.externalLink.create({ data: { id: `${id}-xl`, userId: id, loginProviderId: provider.id, issuer: 'https://up.test', subject: `sub-${id}` } });
  await db.userChangeRequest.create({
    data: {
      id: `${id}-cr`,
      userId: id,
      status: 'AwaitingEmailVerification',
      changes: '{"Email":"new@ada.test"}',
      newEmail: 'new@ada.test',
      emailTokenHash: `${SECRETS.emailToken}-${id}`,
    },
  });
  await db.oneTimeSecret.create({
    data: {
      id: `${id}-ots`,
      purpose: 'password-reset',
      userId: id,
      email: email.toLowerCase(),
      secretHash: SECRETS.secretHash,
      expiresAt: new Date(Date.now() + 60_000),
    },
  });
  await db.oidcPayload.create({
    data: {
      model: 'Grant',
      id: `grant-${id}`,
      accountId: id,
      clientId: 'app-1',
      payload: JSON.stringify({
        accountId: id,
        clientId: 'app-1',
        jti: SECRETS.jti,
        openid: { scope: 'openid email' },
        rejected: { openid: { scope: 'phone' } },
        iat: 1_700_000_000,
      }),
    },
  });
  await db.oidcPayload.create({ data: { model: 'RefreshToken', id: `rt-${id}`, accountId: id, grantId: `grant-${id}`, payload: '{}' } });
  const base = Date.UTC(2026, 0, 1);
  await db.authLogEvent.createMany({
    data: Array.from({ length: LOG_ENTRIES }, (_, i) => ({
      id: `${id}-log-${String(i).padStart(5, '0')}`,
      // Several entries share a timestamp: the cursor must still visit each once.
      createdAt: new Date(base + Math.floor(i / 3) * 1000),
      category: 'Authentication',
      eventType: i % 2 ? 'auth.login-succeeded' : 'auth.second-factor-required',
      userId: id,
      userName,
      ipAddress: '203.0.113.7',
      userAgent: 'Firefox/Ada',
      detail: i % 2 ? '{"method":"pwd"}' : JSON.stringify({ userId: id, userName, method: 'totp' }),
    })),
  });
  // A failed attempt no account was resolved for: only the typed name says whose it is.
  await db.authLogEvent.create({
    data: {
      id: `${id}-typed`,
      category: 'Authentication',
      eventType: 'auth.login-failed',
      success: false,
      userName: email,
      ipAddress: '198.51.100.9',
      detail: JSON.stringify({ success: false, userName: email, reason: 'unknown-user' }),
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

beforeAll(async () => {
  const temp = await tempRealmDb();
  db = temp.db;
  dispose = temp.dispose;
  realm = unitRealm(temp.name);
  await db.app.create({ data: { id: 'app', slug: 'main', displayName: 'Main' } });
  await db.oAuthClient.create({ data: { id: 'c1', clientId: 'app-1', displayName: 'Shop', clientType: 'Public' } });
  await db.group.create({ data: { id: 'g1', name: 'Readers', nameNormalized: 'readers' } });
  await seedPerson('u1', 'Ada', 'Ada@Example.test');
  await db.groupMember.create({ data: { groupId: 'g1', userId: 'u1' } });
  await seedPerson('u2', 'Bob', 'bob@example.test');
}, 60_000);
afterAll(async () => dispose());

describe('the archive', () => {
  it('holds every kind of personal data, the whole log across pages, and no credential material', async () => {
    const data = await readPersonalData(db, realm, 'u1');
    expect(data).not.toBeNull();
    const outcomes: ArchiveOutcome[] = [];
    const zip = await readAll(exportArchive({ db, userId: 'u1', data: data!, onSettled: async (o) => void outcomes.push(o) }));
    expect(outcomes).toEqual(['complete']);
    const entries = unzip(zip);
    expect([...entries.keys()]).toEqual([...ARCHIVE_ENTRIES]);

    expect(entries.get('profile.json')!.json()).toMatchObject({
      Id: 'u1',
      UserName: 'Ada',
      Email: 'Ada@Example.test',
      HasPassword: true,
      Realm: { Slug: 'unit' },
    });
    expect(entries.get('passkeys.json')!.json().Passkeys).toEqual([expect.objectContaining({ Id: 'u1-pk', DisplayName: 'My key' })]);
    expect(entries.get('external-links.json')!.json().ExternalLinks).toEqual([expect.objectContaining({ Provider: 'Upstream', Subject: 'sub-u1' })]);
    expect(entries.get('change-requests.json')!.json().ChangeRequests).toEqual([expect.objectContaining({ NewEmail: 'new@ada.test' })]);
    expect(entries.get('consents.json')!.json().Consents).toEqual([
      expect.objectContaining({ ClientId: 'app-1', ClientName: 'Shop', Scopes: ['openid', 'email'], RefusedScopes: ['phone'] }),
    ]);
    expect(entries.get('groups.json')!.json().Groups).toEqual([expect.objectContaining({ GroupId: 'g1', Name: 'Readers' })]);
    const sessions = entries.get('sessions.json')!.json();
    expect(sessions.BrowserSessions).toEqual([expect.objectContaining({ Id: 'u1-s1', IpAddress: '203.0.113.7', UserAgent: 'Firefox/Ada' })]);
    expect(sessions.ClientSessions).toEqual([expect.objectContaining({ ClientId: 'app-1', Scopes: ['openid', 'email'] })]);

    const log = entries.get('security-log.json')!.json().Entries as { Id: string }[];
    expect(log).toHaveLength(LOG_ENTRIES);
    expect(new Set(log.map((e) => e.Id)).size).toBe(LOG_ENTRIES);
    expect(log.every((e) => e.Id.startsWith('u1-'))).toBe(true);

    const text = [...entries.values()].map((e) => e.text()).join('\n');
    for (const [name, value] of Object.entries(SECRETS)) expect(text, name).not.toContain(value);
    expect(text).not.toContain('grant-u1'); // the engine's row key
    expect(text).not.toMatch(/"(PasswordHash|TokenHash|SecretHash|PublicKey|CredentialId|SecurityStamp)"/i);
    expect(text).not.toContain('Bob');
  });

  it('reports an abandoned download, and a failed read as a broken stream', async () => {
    const data = (await readPersonalData(db, realm, 'u1'))!;
    const outcomes: ArchiveOutcome[] = [];
    const stream = exportArchive({ db, userId: 'u1', data, onSettled: async (o) => void outcomes.push(o) });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    expect(outcomes).toEqual(['aborted']);

    const broken = { ...db, authLogEvent: { findMany: () => Promise.reject(new Error('disk gone')) } } as unknown as RealmDb;
    const failed: ArchiveOutcome[] = [];
    await expect(readAll(exportArchive({ db: broken, userId: 'u1', data, onSettled: async (o) => void failed.push(o) }))).rejects.toThrow();
    expect(failed).toEqual(['failed']);
  });
});

describe('the log scrub', () => {
  it('drops the name-bearing keys of the facts, at any depth, and keeps the rest', () => {
    expect(JSON.parse(redactDetail('{"userId":"u","userName":"Ada","method":"totp","x":{"email":"a@b.c","n":1}}')!)).toEqual({
      userId: 'u',
      method: 'totp',
      x: { n: 1 },
    });
    expect(redactDetail('not json')).toBeNull();
  });
});

describe('masking and finishing a self-deletion', () => {
  it('masks the account at once, and scrubs its sessions and log once the archive is written', async () => {
    const user = (await db.user.findUnique({ where: { id: 'u1' } }))!;
    const now = new Date();
    await db.$transaction(async (tx) => {
      await removeLinkedRecords(tx, user);
      await scrubSecurityLog(tx, { userId: 'u1', ownEntries: false, names: signInNames(user) });
      await maskAccount(tx, 'u1', now);
    });
    const masked = (await db.user.findUnique({ where: { id: 'u1' } }))!;
    expect(masked).toMatchObject({
      userName: placeholderUserName('u1'),
      email: placeholderEmail('u1'),
      firstname: null,
      lastname: null,
      passwordHash: null,
      isActive: false,
      emailConfirmed: false,
      anonymizedAt: now,
      deletedAt: now,
    });
    expect(masked.securityStamp).not.toBe(SECRETS.securityStamp);
    for (const count of [
      db.passkey.count({ where: { userId: 'u1' } }),
      db.totpAuthenticator.count({ where: { userId: 'u1' } }),
      db.externalLink.count({ where: { userId: 'u1' } }),
      db.userChangeRequest.count({ where: { userId: 'u1' } }),
      db.oneTimeSecret.count({ where: { userId: 'u1' } }),
      db.groupMember.count({ where: { userId: 'u1' } }),
      db.oidcPayload.count({ where: { accountId: 'u1' } }),
      db.oidcPayload.count({ where: { grantId: 'grant-u1' } }),
    ])
      expect(await count).toBe(0);
    // Browser sessions are revoked now; their rows wait for the archive.
    expect(await db.session.findMany({ where: { userId: 'u1' }, select: { revokedAt: true } })).toEqual([{ revokedAt: expect.any(Date) }]);
    // The typed-name entry is scrubbed now (the name is free from here on); the own entries wait.
    expect(await db.authLogEvent.findUnique({ where: { id: 'u1-typed' } })).toMatchObject({
      userName: null,
      ipAddress: null,
      detail: '{"success":false,"reason":"unknown-user"}',
    });
    expect(await db.authLogEvent.count({ where: { userId: 'u1', ipAddress: { not: null } } })).toBe(LOG_ENTRIES);

    expect(await finishDeletion(db, 'u1')).toEqual({ sessions: 1, logEntries: LOG_ENTRIES });
    expect(await db.authLogEvent.count({ where: { userId: 'u1' } })).toBe(LOG_ENTRIES);
    expect(
      await db.authLogEvent.count({ where: { userId: 'u1', OR: [{ userName: { not: null } }, { ipAddress: { not: null } }, { userAgent: { not: null } }] } }),
    ).toBe(0);
    expect(await db.authLogEvent.count({ where: { userId: 'u1', detail: { contains: 'Ada' } } })).toBe(0);
    expect(await finishDeletion(db, 'u1')).toEqual({ sessions: 0, logEntries: 0 });
    // Bob is untouched.
    expect(await db.authLogEvent.count({ where: { userId: 'u2', ipAddress: { not: null } } })).toBe(LOG_ENTRIES);
    expect(await db.passkey.count({ where: { userId: 'u2' } })).toBe(1);
  });

  it('the purge job finishes a deletion whose server stopped before the last step', async () => {
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    await db.user.update({ where: { id: 'u2' }, data: { anonymizedAt: hourAgo } });
    expect(await finishInterruptedDeletions(db, new Date())).toBe(1);
    expect(await db.session.count({ where: { userId: 'u2' } })).toBe(0);
    expect(await db.authLogEvent.count({ where: { userId: 'u2', ipAddress: { not: null } } })).toBe(0);
    // A deletion still inside its grace period is left to its own archive.
    await db.session.create({ data: { id: 'u2-s2', userId: 'u2', tokenHash: 'x', expiresAt: new Date() } });
    await db.user.update({ where: { id: 'u2' }, data: { anonymizedAt: new Date() } });
    expect(await finishInterruptedDeletions(db, new Date())).toBe(0);
    expect(await db.session.count({ where: { userId: 'u2' } })).toBe(1);
  });
});
