import { AppError, isAppError } from '../../errors/app-error';
import type { RealmRecord } from '../../realm/realm-record';
import { realmSettings } from '../realm-settings/realm-settings';
import { assertPasswordAllowed } from '../users/password-rules';

// Rules shared by the self-service password routes (reset and change).

/** The realm's policy (users/password-rules.ts), with the reasons under the field the user typed. */
export async function assertNewPasswordAllowed(realm: RealmRecord, password: string, who: { userName: string; email: string }): Promise<void> {
  try {
    await assertPasswordAllowed(realm, password, who);
  } catch (e) {
    if (isAppError(e) && e.code === 'User.PasswordTooWeak') throw new AppError('User.PasswordTooWeak', { errors: { NewPassword: e.errors?.Password ?? [] } });
    throw e;
  }
}

/** 403 Auth.PasswordlessOnly where passwords are switched off: a password set there is useless (spec 5.5). */
export async function assertPasswordsEnabled(realm: RealmRecord): Promise<void> {
  const { SignIn } = await realmSettings(realm);
  if (SignIn.PasswordlessOnly || !SignIn.Password) throw new AppError('Auth.PasswordlessOnly');
}
