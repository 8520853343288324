import { open } from '../../crypto/secret-box';
import type { RealmDb } from '../../db/types';
import { checkTotpCode, isFreshStep } from './totp';

export type TotpUse = 'ok' | 'no-authenticator' | 'invalid' | 'replayed';

/**
 * Checks a code against the user's authenticator and, when it is right, records its time step so
 * that neither it nor an older code is accepted again. The record is a conditional update, so two
 * concurrent requests with the same code cannot both pass.
 */
export async function useTotpCode(db: RealmDb, userId: string, code: string, options: { confirmed: boolean }): Promise<TotpUse> {
  const totp = await db.totpAuthenticator.findUnique({ where: { userId }, select: { secretEncrypted: true, confirmedAt: true, lastUsedStep: true } });
  if (!totp || (options.confirmed && !totp.confirmedAt)) return 'no-authenticator';
  const check = await checkTotpCode(await open(totp.secretEncrypted), code);
  if (!check.valid) return 'invalid';
  if (!isFreshStep(check.timeStep, totp.lastUsedStep)) return 'replayed';
  const r = await db.totpAuthenticator.updateMany({
    where: { userId, secretEncrypted: totp.secretEncrypted, OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: check.timeStep } }] },
    data: { lastUsedStep: check.timeStep },
  });
  return r.count === 1 ? 'ok' : 'replayed';
}
