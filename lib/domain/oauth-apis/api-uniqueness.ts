import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';

/** The 409 for a unique-index violation on OAuthApi (audience or normalized name), else `e` itself. */
export function apiConflict(e: unknown, names: { name?: string; audience?: string }): unknown {
  if (isUniqueViolation(e, 'audience')) return new AppError('OAuthApi.AudienceTaken', { errors: { Audience: [`${names.audience} is already used.`] } });
  if (isUniqueViolation(e)) return new AppError('OAuthApi.NameTaken', { errors: { Name: [`${names.name} is already used.`] } });
  return e;
}
