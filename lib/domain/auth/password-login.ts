import { dummyPasswordHash, verifyPassword } from '../../auth/passwords';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { clearRate, limitRate } from '../realm-settings/rate-limit';
import { realmSettings } from '../realm-settings/realm-settings';
import { normalizeEmail, normalizeUserName } from '../users/insert-user';
import { completeFirstFactor, type SignInOutcome } from './sign-in';
import { findPasswordSignInUser } from './sign-in-user-sql';

// POST /api/account/login (spec 4.1, 5.5). Unknown user, wrong password, inactive or deleted user
// all answer the same 401 after the same argon2 work, so the answer tells nothing about accounts.
// A passwordless-only realm (or one with passwords turned off) answers 403.
/**
 * A directory asked when no local password matches (LDAP, lib/domain/external-sign-in/ldap-sign-in.ts).
 * Passed in by the endpoint, so the password check does not depend on external sign-in.
 */
export type DirectoryCheck = (
  ctx: DomainContext,
  userName: string,
  password: string,
) => Promise<{ kind: 'signed-in'; outcome: SignInOutcome } | { kind: 'rejected' } | { kind: 'unavailable'; providers: string[] } | { kind: 'none' }>;

export async function passwordLogin(ctx: DomainContext, userName: string, password: string, directory?: DirectoryCheck): Promise<SignInOutcome> {
  const settings = await realmSettings(ctx.realm);
  if (settings.SignIn.PasswordlessOnly || !settings.SignIn.Password) throw new AppError('Auth.PasswordlessOnly');
  const db = await realmDb(ctx.realm);
  // The second-factor facts come along, so the sign-in decision needs no second read of the user.
  const user = await findPasswordSignInUser(db, normalizeUserName(userName), normalizeEmail(userName));
  const target = lockoutKey(userName, user?.facts.id);
  await limitRate(ctx, 'login', 'target', target);
  // No local password for this name: the realm's directories decide (CONTRACT.md "External identity").
  if (directory && (!user || !user.passwordHash)) {
    const asked = await directory(ctx, userName, password);
    if (asked.kind === 'signed-in') {
      await clearRate(ctx, 'login', 'target', target);
      return asked.outcome;
    }
    if (asked.kind === 'unavailable') {
      await publish(eventFrom(ctx, 'auth.login-failed', user?.facts.id, { success: false, userName: userName.slice(0, 128), reason: 'directory-unavailable' }));
      throw new AppError('ExternalLogin.Unavailable', { detail: `The directory (${asked.providers.join(', ')}) cannot be reached. Try again later.` });
    }
  }
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !user.passwordHash || !ok || !user.isActive || user.deletedAt) {
    const reason = !user ? 'unknown-user' : !ok || !user.passwordHash ? 'bad-password' : 'inactive';
    await publish(eventFrom(ctx, 'auth.login-failed', user?.facts.id, { success: false, userName: userName.slice(0, 128), reason }));
    throw new AppError('Auth.InvalidCredentials');
  }
  await clearRate(ctx, 'login', 'target', target);
  return completeFirstFactor(ctx, user.facts.id, 'pwd', user.facts);
}

/**
 * The per-account guess counter: the account a name resolves to, so its user name and e-mail, in
 * any letter case, share one allowance and typing variants gains nothing. A name that resolves to
 * no account is counted under the name itself, with the same ceiling, so being locked out tells
 * nothing about whether an account exists.
 */
export function lockoutKey(typedName: string, userId: string | undefined): string {
  return userId ? `account:${userId}` : `name:${normalizeUserName(typedName)}`;
}
