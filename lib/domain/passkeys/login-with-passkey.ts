import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import type { RealmDb } from '../../db/types';
import { completeFirstFactor, startSession, type PendingSignIn, type SignInOutcome } from '../auth/sign-in';
import { realmDb, type DomainContext } from '../../realm/context';
import { redeemToken, type OneTimeRecord } from '../one-time-secrets/one-time-secrets';
import { normalizeEmail, normalizeUserName } from '../users/insert-user';
import { openCeremony, takeCeremony } from './ceremony';
import { decoyCredentialId } from './decoy';
import { CEREMONY_TIMEOUT_MS, clampCounter } from './register-passkey';
import { assertPasskeysEnabled, parseTransports, passkeyColumns, validPasskeysOf } from './repo';
import { challengeBytes, isAllowedOrigin, readClientData, userHandleFor } from './webauthn';

// POST /api/account/passkey/login-options and /login (spec 4.3, 5.5). With a UserName the options
// list that user's credentials (a decoy when there are none, see decoy.ts); without one the login
// is usernameless (discoverable credentials). A verified assertion with user verification is two
// factors: it signs in directly, or finishes a sign-in that waits for its second factor.

async function pendingSignIn(db: RealmDb, pendingToken: string | undefined): Promise<(OneTimeRecord & { data: PendingSignIn }) | null> {
  if (!pendingToken) return null;
  const r = await redeemToken(db, 'mfa-pending', pendingToken, { consume: false });
  if (!r.ok || !r.record.userId) return null;
  const data = (r.record.data ?? { amr: [] }) as PendingSignIn;
  return data.setupOnly ? null : { ...r.record, data };
}

export async function passkeyLoginOptions(
  ctx: DomainContext,
  userName: string | null | undefined,
  pendingToken?: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await assertPasskeysEnabled(ctx);
  const db = await realmDb(ctx.realm);
  const rpId = ctx.realm.primaryDomain;
  const name = userName?.trim();
  let userId: string | null = null;
  let allowCredentials: { id: string }[] | undefined;
  if (name) {
    // The person whose user name it is, else whose address (deterministic, as the password sign-in: auth/sign-in-user-sql.ts).
    const named = await db.user.findMany({
      where: { OR: [{ userNameNormalized: normalizeUserName(name) }, { emailNormalized: normalizeEmail(name) }], isActive: true, deletedAt: null },
      select: { id: true, userNameNormalized: true },
      take: 2,
    });
    const user = named.find((u) => u.userNameNormalized === normalizeUserName(name)) ?? named[0];
    const credentials = user ? await validPasskeysOf(db, ctx, user.id) : [];
    userId = user?.id ?? null;
    // Transports are left out on purpose: they would tell real credentials from the decoy.
    allowCredentials = credentials.length ? credentials.map((p) => ({ id: p.credentialId })) : [{ id: await decoyCredentialId(ctx.realm.id, name) }];
  } else {
    // The second step of a pending sign-in: offer the credentials of the person who passed step one.
    const pending = await pendingSignIn(db, pendingToken);
    const credentials = pending ? await validPasskeysOf(db, ctx, pending.userId!) : [];
    if (pending && credentials.length) {
      userId = pending.userId;
      allowCredentials = credentials.map((p) => ({ id: p.credentialId }));
    }
  }
  const { challenge } = await openCeremony(db, 'passkey-login', userId, { rpId, named: allowCredentials !== undefined });
  return generateAuthenticationOptions({
    rpID: rpId,
    allowCredentials,
    challenge: challengeBytes(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
  });
}

export async function loginWithPasskey(ctx: DomainContext, response: AuthenticationResponseJSON, pendingToken?: string): Promise<SignInOutcome> {
  const { userId, userName } = await provePasskeyAssertion(ctx, response);
  const db = await realmDb(ctx.realm);
  const pending = await pendingSignIn(db, pendingToken);
  if (pending && pending.userId === userId && (await redeemToken(db, 'mfa-pending', pendingToken!)).ok) {
    // Step two of a sign-in that waited for a second factor: this passkey is it.
    const sessionToken = await startSession(ctx, { id: userId, userName }, [...new Set([...pending.data.amr, 'hwk'])]);
    return { kind: 'session', sessionToken, body: { authenticated: true, userId, userName } };
  }
  return completeFirstFactor(ctx, userId, 'hwk');
}

/**
 * Verifies an assertion against its ceremony and the stored credential (shared by the hosted sign-in
 * and the native `urn:gatehouse:passkey` grant, spec 4.4). `expectedChallenge`, when given, must be
 * the ceremony the caller began (the grant's `ceremony_id`).
 */
export async function provePasskeyAssertion(
  ctx: DomainContext,
  response: AuthenticationResponseJSON,
  expectedChallenge?: string,
): Promise<{ userId: string; userName: string }> {
  await assertPasskeysEnabled(ctx);
  const client = readClientData(response.response?.clientDataJSON);
  if (!client) throw new AppError('Passkey.VerificationFailed', { detail: 'The response carries no readable clientDataJSON.' });
  if (expectedChallenge !== undefined && expectedChallenge !== client.challenge)
    throw new AppError('Passkey.CeremonyExpired', { detail: 'The assertion answers another ceremony.' });
  const db = await realmDb(ctx.realm);
  const ceremony = await takeCeremony(db, 'passkey-login', client.challenge);
  const rpId = ctx.realm.primaryDomain;
  if (ceremony.data.rpId !== rpId) throw new AppError('Passkey.CeremonyExpired', { detail: "The realm's domain changed; start again." });

  // Every refusal past this point is the same 401, whatever the reason (logged, never answered).
  const refuse = async (reason: string, userId?: string): Promise<AppError> => {
    await publish(eventFrom(ctx, 'auth.login-failed', userId, { success: false, method: 'passkey', reason }));
    return new AppError('Auth.InvalidCredentials', { detail: 'The passkey could not be verified.' });
  };
  if (!isAllowedOrigin(client.origin, rpId)) throw await refuse('origin');
  const passkey = await db.passkey.findUnique({
    where: { credentialId: response.id },
    select: { ...passkeyColumns, user: { select: { userName: true, isActive: true, deletedAt: true } } },
  });
  if (!passkey || passkey.rpId !== rpId) throw await refuse('unknown-credential');
  if (ceremony.data.named && passkey.userId !== ceremony.userId) throw await refuse('not-the-named-user', passkey.userId);
  const handle = response.response.userHandle;
  if (handle && handle !== Buffer.from(userHandleFor(ctx.realm.id, passkey.userId)).toString('base64url')) throw await refuse('user-handle', passkey.userId);

  let info;
  try {
    const v = await verifyAuthenticationResponse({
      response,
      expectedChallenge: client.challenge,
      expectedOrigin: client.origin,
      expectedRPID: rpId,
      expectedType: 'webauthn.get',
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: parseTransports(passkey.transports),
      },
      requireUserVerification: true,
    });
    if (!v.verified) throw new Error('not verified');
    info = v.authenticationInfo;
  } catch (e) {
    // The library's message says which check failed (signature, counter, flags); only the log sees it.
    const reason = e instanceof Error && /counter/i.test(e.message) ? 'counter' : 'assertion';
    throw await refuse(reason, passkey.userId);
  }
  if (!passkey.user.isActive || passkey.user.deletedAt) throw await refuse('inactive', passkey.userId);

  // Compare-and-set on the counter: of two assertions racing on one credential only one wins.
  const now = new Date();
  const updated = await db.passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: clampCounter(info.newCounter), lastUsedAt: now, backedUp: info.credentialBackedUp, deviceType: info.credentialDeviceType },
  });
  if (updated.count !== 1) throw await refuse('counter-race', passkey.userId);
  return { userId: passkey.userId, userName: passkey.user.userName };
}
