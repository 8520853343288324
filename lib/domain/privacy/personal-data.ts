import { parseStringList } from '../../db/json-list';
import type { RealmTx } from '../../db/types';
import type { RealmRecord } from '../../realm/realm-record';
import { hasPassword } from '../users/password-presence';

// The kinds of personal data a person has few of (their profile, passkeys, linked identities,
// change requests, OAuth consents, group memberships, redeemed invite codes), read at once: they fit
// in memory whatever the account's age. The kinds that grow without bound (browser sessions, the
// security log) are streamed page by page instead (record-pages.ts).
//
// Every read names its columns: credential material (hashes, sealed secrets, passkey keys, tokens)
// is never selected, so it cannot reach the archive. The names are the API's (PascalCase).

type Json = Record<string, unknown>;

export type PersonalData = {
  exportedAt: Date;
  profile: Json;
  passkeys: Json[];
  externalLinks: Json[];
  changeRequests: Json[];
  consents: Json[];
  clientSessions: Json[];
  groups: Json[];
  inviteCodes: Json[];
};

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const words = (v: unknown): string[] => (typeof v === 'string' ? v.split(' ').filter(Boolean) : []);

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Null when the user does not exist. */
export async function readPersonalData(db: RealmTx, realm: RealmRecord, userId: string): Promise<PersonalData | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: {
      id: true,
      userName: true,
      email: true,
      emailConfirmed: true,
      firstname: true,
      lastname: true,
      acronym: true,
      isActive: true,
      twoFactorEnabled: true,
      twoFactorPolicy: true,
      secureSetupDueAt: true,
      lastLoginAt: true,
      createdAt: true,
      updatedAt: true,
    },
  });
  if (!user) return null;
  // One after another: inside a transaction the client has one connection.
  const password = await hasPassword(db, userId);
  const totp = await db.totpAuthenticator.findUnique({ where: { userId }, select: { createdAt: true, confirmedAt: true } });
  const passkeys = await db.passkey.findMany({
    where: { userId },
    select: { id: true, displayName: true, deviceType: true, backedUp: true, transports: true, rpId: true, createdAt: true, lastUsedAt: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const links = await db.externalLink.findMany({
    where: { userId },
    select: { id: true, issuer: true, subject: true, createdAt: true, lastUsedAt: true, loginProvider: { select: { name: true, flavor: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const requests = await db.userChangeRequest.findMany({
    where: { userId },
    select: { id: true, status: true, changes: true, newEmail: true, reason: true, decidedAt: true, createdAt: true, updatedAt: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const memberships = await db.groupMember.findMany({
    where: { userId },
    select: { createdAt: true, group: { select: { id: true, name: true, description: true } } },
    orderBy: [{ createdAt: 'asc' }, { groupId: 'asc' }],
  });
  const codes = await db.inviteCode.findMany({
    where: { usedByUserId: userId },
    select: { id: true, appId: true, label: true, usedAt: true },
    orderBy: [{ usedAt: 'asc' }, { id: 'asc' }],
  });
  const grants = await readGrants(db, userId);

  return {
    exportedAt: new Date(),
    profile: {
      Realm: { Slug: realm.slug, DisplayName: realm.displayName },
      Id: user.id,
      UserName: user.userName,
      Email: user.email,
      EmailConfirmed: user.emailConfirmed,
      Firstname: user.firstname,
      Lastname: user.lastname,
      Acronym: user.acronym,
      IsActive: user.isActive,
      HasPassword: password,
      TwoFactor: {
        Enabled: user.twoFactorEnabled,
        Policy: user.twoFactorPolicy,
        AuthenticatorAddedAt: totp?.confirmedAt ?? null,
        SecureSetupDueAt: user.secureSetupDueAt,
      },
      LastLoginAt: user.lastLoginAt,
      CreatedAt: user.createdAt,
      UpdatedAt: user.updatedAt,
    },
    passkeys: passkeys.map((p) => ({
      Id: p.id,
      DisplayName: p.displayName,
      DeviceType: p.deviceType,
      BackedUp: p.backedUp,
      Transports: parseStringList(p.transports),
      RelyingParty: p.rpId,
      CreatedAt: p.createdAt,
      LastUsedAt: p.lastUsedAt,
    })),
    externalLinks: links.map((l) => ({
      Id: l.id,
      Provider: l.loginProvider.name,
      Flavor: l.loginProvider.flavor,
      Issuer: l.issuer,
      Subject: l.subject,
      CreatedAt: l.createdAt,
      LastUsedAt: l.lastUsedAt,
    })),
    changeRequests: requests.map((r) => ({
      Id: r.id,
      Status: r.status,
      Changes: parseJson(r.changes) ?? {},
      NewEmail: r.newEmail,
      Reason: r.reason,
      DecidedAt: r.decidedAt,
      CreatedAt: r.createdAt,
      UpdatedAt: r.updatedAt,
    })),
    consents: grants.consents,
    clientSessions: grants.sessions,
    groups: memberships.map((m) => ({ GroupId: m.group.id, Name: m.group.name, Description: m.group.description, MemberSince: m.createdAt })),
    inviteCodes: codes.map((c) => ({ Id: c.id, AppId: c.appId, Label: c.label, UsedAt: c.usedAt })),
  };
}

type GrantRow = { payload: string; clientId: string | null; createdAt: Date; expiresAt: Date | null };

/**
 * The OAuth engine's grants for the person: each is both a consent (what the person allowed a client,
 * and what they refused) and a client session. Only the fields named below are read from the
 * engine's JSON; its bearer values (sealed `jti`) are never copied.
 */
async function readGrants(db: RealmTx, userId: string): Promise<{ consents: Json[]; sessions: Json[] }> {
  const rows: GrantRow[] = await db.oidcPayload.findMany({
    where: { model: 'Grant', accountId: userId },
    // The row's id is the digest of the engine's grant id: not the person's data, and left out.
    select: { payload: true, clientId: true, createdAt: true, expiresAt: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const clientIds = [...new Set(rows.map((r) => r.clientId).filter((c): c is string => Boolean(c)))];
  const clients = clientIds.length
    ? await db.oAuthClient.findMany({ where: { clientId: { in: clientIds } }, select: { clientId: true, displayName: true } })
    : [];
  const names = new Map(clients.map((c) => [c.clientId, c.displayName]));
  const consents: Json[] = [];
  const sessions: Json[] = [];
  const now = Date.now();
  for (const r of rows) {
    const payload = parseJson(r.payload);
    const p = isObject(payload) ? payload : {};
    const clientId = r.clientId ?? (typeof p.clientId === 'string' ? p.clientId : '');
    const openid = isObject(p.openid) ? p.openid : {};
    const rejected = isObject(p.rejected) ? p.rejected : {};
    const rejectedOpenid = isObject(rejected.openid) ? rejected.openid : {};
    const resources = isObject(p.resources) ? p.resources : {};
    const scopes = [...new Set([...words(openid.scope), ...Object.values(resources).flatMap(words)])];
    const createdAt = typeof p.iat === 'number' ? new Date(p.iat * 1000) : r.createdAt;
    consents.push({
      ClientId: clientId,
      ClientName: names.get(clientId) ?? clientId,
      Scopes: words(openid.scope),
      Claims: Array.isArray(openid.claims) ? openid.claims.filter((c) => typeof c === 'string') : [],
      Resources: Object.fromEntries(Object.entries(resources).map(([aud, s]) => [aud, words(s)])),
      RefusedScopes: words(rejectedOpenid.scope),
      GrantedAt: createdAt,
      ExpiresAt: r.expiresAt,
    });
    if (!r.expiresAt || r.expiresAt.getTime() > now) {
      sessions.push({ ClientId: clientId, ClientName: names.get(clientId) ?? clientId, Scopes: scopes, CreatedAt: createdAt, ExpiresAt: r.expiresAt });
    }
  }
  return { consents, sessions };
}
