import type { RealmDb, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { issueSecret, redeemToken, type OneTimeRecord } from '../one-time-secrets/one-time-secrets';

// A WebAuthn ceremony is a one-time secret ('passkey-registration' or 'passkey-login', 5 minutes,
// single use) whose token IS the challenge: the options carry it (base64url, verbatim) and the
// authenticator signs it inside clientDataJSON, so the finishing request names its ceremony by
// itself. No cookie and no separate ceremony id are needed, which makes the flow identical for a
// browser, an API client and the native grant; only the SHA-256 of the challenge is stored.
export type CeremonyPurpose = 'passkey-registration' | 'passkey-login';

export type CeremonyData = {
  /** The RP ID the options were made for; a PrimaryDomain change in between voids the ceremony. */
  rpId: string;
  /** Registration: the display name asked for at options time. */
  displayName?: string;
  /** Login: the options named a user (allowCredentials); only that user's passkeys may answer. */
  named?: boolean;
};

export async function openCeremony(
  db: RealmDb | RealmTx,
  purpose: CeremonyPurpose,
  userId: string | null,
  data: CeremonyData,
): Promise<{ challenge: string; expiresAt: Date }> {
  const { secret, expiresAt } = await issueSecret(db, { purpose, userId, data });
  return { challenge: secret, expiresAt };
}

/** Consumes the ceremony a challenge names; unknown, used and expired all answer Passkey.CeremonyExpired. */
export async function takeCeremony(db: RealmDb | RealmTx, purpose: CeremonyPurpose, challenge: string): Promise<OneTimeRecord & { data: CeremonyData }> {
  const r = await redeemToken(db, purpose, challenge);
  if (!r.ok) throw new AppError('Passkey.CeremonyExpired');
  return r.record as OneTimeRecord & { data: CeremonyData };
}
