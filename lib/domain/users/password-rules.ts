import { passwordPolicyProblems } from '../../auth/password-policy';
import { AppError } from '../../errors/app-error';
import type { RealmRecord } from '../../realm/realm-record';
import { realmSettings } from '../realm-settings/realm-settings';

/**
 * Throws 400 `User.PasswordTooWeak` (with the reasons under `Password`) unless the password meets
 * the realm's policy. Every path that sets a password calls this.
 */
export async function assertPasswordAllowed(
  realm: RealmRecord,
  password: string,
  who: { userName?: string | null; email?: string | null } = {},
): Promise<void> {
  const { PasswordPolicy } = await realmSettings(realm);
  const problems = passwordPolicyProblems(password, PasswordPolicy, { ...who, realmWords: [realm.slug, realm.displayName] });
  if (problems.length) throw new AppError('User.PasswordTooWeak', { errors: { Password: problems } });
}
