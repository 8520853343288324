import { hashPassword } from '../../auth/passwords';
import { AppError, validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { findActiveInviteCode } from '../invite-codes/redeem-invite-code';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { limitRate, limitRequestRate } from '../realm-settings/rate-limit';
import { settingsForApp } from '../apps/app-settings';
import { normalizeEmail, normalizeUserName } from '../users/insert-user';
import { assertPasswordAllowed } from '../users/password-rules';
import { isSafeContinuation, registrationFieldProblems, sent } from './fields';
import { sendAlreadyRegistered, sendRegistrationVerification, sendUserNameTaken } from './mails';
import { withUniformDuration } from '../anti-enumeration/uniform-duration';

// POST /api/account/register (spec 2.5, 4.1; CONTRACT.md): with the ExplicitEndpoint posture a person
// asks for an account; a pending registration (the 'registration' one-time secret, 24 hours, its
// data holding the fields and the password's argon2 HASH, never the password) is mailed as a link.
// The account is created only when the link is proven (verify-registration.ts).
//
// Anti-enumeration: an address that already has an account, or a user name someone else holds, gets
// the same 202 after the same work (the password is hashed either way, one mail is sent either way,
// all padded to one duration); the mail the address receives says what happened instead of
// carrying a link. Only the mailbox learns the outcome, never the caller.
export type RegisterInput = {
  Email: string;
  UserName?: string | null;
  Firstname?: string | null;
  Lastname?: string | null;
  Password?: string | null;
  InviteCode?: string | null;
  Redirect?: string | null;
};

/** The `data` of a pending registration. */
export type PendingRegistration = {
  email: string;
  userName: string;
  firstname: string | null;
  lastname: string | null;
  passwordHash: string | null;
  /** The App whose invite code was checked (and is consumed at verification), if any. */
  appId: string;
  inviteCodeId: string | null;
  redirect: string | null;
};

const USER_NAME = /^[^\s\p{C}]+$/u;

export async function register(ctx: DomainContext, input: RegisterInput, appId: string): Promise<void> {
  // The App the registration is for decides: its SelfRegistration and RegistrationFields override the realm's.
  const s = await settingsForApp(ctx.realm, appId);
  if (s.SelfRegistration.Posture !== 'ExplicitEndpoint') throw new AppError('Registration.Disabled');
  const emailShown = input.Email.trim();
  const email = normalizeEmail(emailShown);
  await limitRate(ctx, 'register', 'target', email);

  const errors = registrationFieldProblems(s.RegistrationFields, input);
  if (sent(input.UserName) && !errors.UserName) {
    const u = input.UserName.trim();
    if (!USER_NAME.test(u)) errors.UserName = ['Use no spaces or control characters.'];
    // A user name that looks like an address must be the person's own: one sign-in name never
    // matches two accounts (password login takes either).
    else if (u.includes('@') && normalizeUserName(u) !== email) errors.UserName = ['A user name with @ must be your own e-mail address.'];
  }
  if (Object.keys(errors).length) throw validationError(errors, 'The registration does not match the fields this realm asks for.');
  if (sent(input.Redirect) && !isSafeContinuation(input.Redirect)) throw new AppError('Continuation.Invalid');

  const userName = sent(input.UserName) ? input.UserName.trim() : emailShown;
  const password = input.Password ? input.Password : undefined;
  if (password) await assertPasswordAllowed(ctx.realm, password, { userName, email: emailShown });

  const db = await realmDb(ctx.realm);
  let inviteCodeId: string | null = null;
  if (s.SelfRegistration.RequireInviteCode && !sent(input.InviteCode)) throw new AppError('Registration.InviteCodeRequired');
  if (sent(input.InviteCode)) {
    // Guessing codes is the attack here: every check counts against the caller's address, and
    // against the App whose codes are guessed (many addresses together).
    await limitRequestRate(ctx, 'invite-code-redeem', appId);
    inviteCodeId = await findActiveInviteCode(db, appId, input.InviteCode);
    if (!inviteCodeId) throw new AppError('Registration.InviteCodeInvalid');
  }

  await withUniformDuration('register', async () => {
    const passwordHash = password ? await hashPassword(password) : null;
    const existing = await db.user.findFirst({ where: { OR: [{ emailNormalized: email }, { userNameNormalized: email }] }, select: { id: true } });
    if (existing) {
      await mail(() => sendAlreadyRegistered({ realm: ctx.realm, appId }, emailShown));
      await publish(eventFrom(ctx, 'user.registration-for-existing-account', existing.id, { userId: existing.id }));
      return { value: undefined, real: false };
    }
    if (sent(input.UserName)) {
      const n = normalizeUserName(userName);
      const clash = await db.user.findFirst({ where: { OR: [{ userNameNormalized: n }, { emailNormalized: n }] }, select: { id: true } });
      if (clash) {
        await mail(() => sendUserNameTaken({ realm: ctx.realm, appId }, emailShown, userName));
        await publish(eventFrom(ctx, 'user.registration-name-taken', undefined, { appId }));
        return { value: undefined, real: false };
      }
    }
    await requestAccount(ctx, db, { email, emailShown, userName, passwordHash, appId, inviteCodeId, input });
    return { value: undefined, real: true };
  });
}

/** The real path: a pending registration is stored and its link mailed. */
async function requestAccount(
  ctx: DomainContext,
  db: Awaited<ReturnType<typeof realmDb>>,
  p: { email: string; emailShown: string; userName: string; passwordHash: string | null; appId: string; inviteCodeId: string | null; input: RegisterInput },
): Promise<void> {
  const { email, emailShown, userName, passwordHash, appId, inviteCodeId, input } = p;
  const pending: PendingRegistration = {
    email: emailShown,
    userName,
    firstname: sent(input.Firstname) ? input.Firstname.trim() : null,
    lastname: sent(input.Lastname) ? input.Lastname.trim() : null,
    passwordHash,
    appId,
    inviteCodeId,
    redirect: sent(input.Redirect) ? input.Redirect : null,
  };
  const { id, secret } = await issueSecret(db, { purpose: 'registration', email, data: pending });
  await mail(() => sendRegistrationVerification({ realm: ctx.realm, appId }, emailShown, secret));
  await publish(eventFrom(ctx, 'user.registration-requested', id, { hasPassword: Boolean(passwordHash), inviteCode: Boolean(inviteCodeId), appId }));
}

async function mail(send: () => Promise<void>): Promise<void> {
  try {
    await send();
  } catch {
    throw new AppError('Mail.SendFailed'); // logged by the transport
  }
}
