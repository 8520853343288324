import { AppError } from '../../errors/app-error';
import type { RedeemFailure } from './one-time-secrets';

/** The client-facing error of a mailed link that cannot be redeemed. */
export function tokenError(reason: RedeemFailure, detail?: string): AppError {
  if (reason === 'expired') return new AppError('Token.Expired', { detail });
  if (reason === 'used') return new AppError('Token.Used', { detail });
  return new AppError('Token.Invalid', { detail });
}
