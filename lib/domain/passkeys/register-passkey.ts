import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { requireUser } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { realmSettings } from '../realm-settings/realm-settings';
import { openCeremony, takeCeremony } from './ceremony';
import { assertPasskeysEnabled, parseTransports, passkeyColumns, toPasskeyDto, validPasskeysOf, type PasskeyDto } from './repo';
import { challengeBytes, isAllowedOrigin, readClientData, userHandleFor } from './webauthn';

// POST /api/account/passkey/register-options and /register (spec 4.3): the signed-in user adds a
// passkey. Discoverable credential and user verification are required, so the passkey alone signs
// in (usernameless) and counts as two factors; no attestation is asked for.
export const CEREMONY_TIMEOUT_MS = 5 * 60_000;
const MAX_PASSKEYS_PER_USER = 50;

export async function passkeyRegistrationOptions(ctx: DomainContext, displayName?: string | null): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const actor = requireUser(ctx);
  await assertPasskeysEnabled(ctx);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUniqueOrThrow({
    where: { id: actor.userId },
    select: { id: true, userName: true, email: true, firstname: true, lastname: true },
  });
  const existing = await validPasskeysOf(db, ctx, user.id);
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw new AppError('Validation.Failed', { detail: `At most ${MAX_PASSKEYS_PER_USER} passkeys per user.` });
  const rpId = ctx.realm.primaryDomain;
  const { challenge } = await openCeremony(db, 'passkey-registration', user.id, { rpId, displayName: displayName?.trim() || undefined });
  const s = await realmSettings(ctx.realm);
  const fullName = [user.firstname, user.lastname].filter(Boolean).join(' ');
  return generateRegistrationOptions({
    rpName: s.Branding.ProductName || ctx.realm.displayName,
    rpID: rpId,
    userName: user.userName,
    userID: userHandleFor(ctx.realm.id, user.id),
    userDisplayName: fullName || user.userName,
    challenge: challengeBytes(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: parseTransports(p.transports) })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
}

function failed(detail: string): AppError {
  return new AppError('Passkey.VerificationFailed', { detail });
}

export async function registerPasskey(ctx: DomainContext, response: RegistrationResponseJSON, displayName?: string | null): Promise<PasskeyDto> {
  const actor = requireUser(ctx);
  await assertPasskeysEnabled(ctx);
  const client = readClientData(response.response?.clientDataJSON);
  if (!client) throw failed('The response carries no readable clientDataJSON.');
  const db = await realmDb(ctx.realm);
  const ceremony = await takeCeremony(db, 'passkey-registration', client.challenge);
  // Another user's ceremony is not this user's: treated like a ceremony that does not exist.
  if (ceremony.userId !== actor.userId) throw new AppError('Passkey.CeremonyExpired');
  const rpId = ctx.realm.primaryDomain;
  if (ceremony.data.rpId !== rpId) throw new AppError('Passkey.CeremonyExpired', { detail: "The realm's domain changed; start again." });
  if (!isAllowedOrigin(client.origin, rpId)) throw failed('The passkey was created on an origin this realm does not serve.');

  let info;
  try {
    const v = await verifyRegistrationResponse({
      response,
      expectedChallenge: client.challenge,
      expectedOrigin: client.origin,
      expectedRPID: rpId,
      expectedType: 'webauthn.create',
      requireUserPresence: true,
      requireUserVerification: true,
    });
    if (!v.verified) throw new Error('not verified');
    info = v.registrationInfo;
  } catch {
    await publish(eventFrom(ctx, 'auth.passkey-registration-failed', actor.userId, { success: false }));
    throw failed('The authenticator response could not be verified.');
  }

  const name = (displayName?.trim() || ceremony.data.displayName || defaultName()).slice(0, 100);
  const transports = info.credential.transports ?? response.response.transports ?? [];
  const id = newId();
  await onUniqueViolation(
    () =>
      db.passkey.create({
        data: {
          id,
          userId: actor.userId,
          credentialId: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
          counter: clampCounter(info.credential.counter),
          transports: JSON.stringify(transports),
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          rpId,
          displayName: name,
          createdAt: new Date(),
        },
      }),
    'Passkey.AlreadyRegistered',
  );
  await publish(
    eventFrom(ctx, 'auth.passkey-added', actor.userId, { passkeyId: id, deviceType: info.credentialDeviceType, backedUp: info.credentialBackedUp }),
  );
  return toPasskeyDto(await db.passkey.findUniqueOrThrow({ where: { id }, select: passkeyColumns }));
}

function defaultName(): string {
  return `Passkey ${new Date().toISOString().slice(0, 10)}`;
}

/** Signature counters are 32-bit unsigned; the column is a signed 32-bit integer. */
export function clampCounter(n: number): number {
  return Math.max(0, Math.min(n, 2_147_483_647));
}
