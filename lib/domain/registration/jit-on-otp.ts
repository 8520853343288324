import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import type { DomainContext } from '../../realm/context';
import { consumeInviteCode, findActiveInviteCode } from '../invite-codes/redeem-invite-code';
import { limitRequestRate } from '../realm-settings/rate-limit';
import type { realmSettings } from '../realm-settings/realm-settings';
import { insertUser, normalizeEmail } from '../users/insert-user';

// The JitOnOtp self-registration posture (spec 2.5: "an unknown e-mail signing in by code gets an
// account"). With it, `email-otp/login/request` mails the code to an address without an account
// too (the answer and its duration stay the same), and the first `email-otp/login` with that code
// creates the account — user name = the address, the address confirmed (the code proved the
// mailbox), no password — and signs the person in with amr 'otp'.
//
// `RequireInviteCode` is honoured here: without a valid `InviteCode` the creation is refused with
// 400 Registration.InviteCodeRequired / InviteCodeInvalid. That answer comes only after the mailed
// code was proven, so it reveals nothing about the address to someone who cannot read the mailbox,
// and the caller's transaction rolls back so the same code can be sent again with an invite code.

type Settings = Awaited<ReturnType<typeof realmSettings>>;

/** Marks a code row mailed under this posture to an address without an account. */
export type JitCodeData = { userId: null; jit: true };

export function jitOnOtpEnabled(s: Settings): boolean {
  return s.SelfRegistration.Posture === 'JitOnOtp';
}

export function isJitCode(data: unknown): data is JitCodeData {
  const d = data as { userId?: unknown; jit?: unknown } | null | undefined;
  return Boolean(d) && d!.userId === null && d!.jit === true;
}

/**
 * Whether a code may be mailed to `mailbox`, which no active account has: only when no user row at
 * all (deactivated or deleted ones included) holds it as address or user name, since the account
 * it would create takes it as both.
 */
export async function mayRegisterMailbox(db: RealmTx, mailbox: string): Promise<boolean> {
  const clash = await db.user.findFirst({ where: { OR: [{ emailNormalized: mailbox }, { userNameNormalized: mailbox }] }, select: { id: true } });
  return !clash;
}

export type JitResult = { kind: 'existing'; userId: string } | { kind: 'created'; userId: string; inviteCodeId: string | null } | { kind: 'refused' };

/**
 * Inside the transaction that redeemed a JIT code: creates the account, consuming the invite code
 * when the realm asks for one. An account that appeared for the address since the code was mailed
 * (a concurrent sign-up) is signed in instead when it is active — the code proved the mailbox —
 * and refused otherwise. Throws AppError (rolling the transaction back) when an invite code is
 * missing or not valid.
 */
export async function createJitAccount(
  ctx: DomainContext,
  tx: RealmTx,
  s: Settings,
  input: { email: string; inviteCode?: string | null; appId: string },
): Promise<JitResult> {
  const mailbox = normalizeEmail(input.email);
  const clash = await tx.user.findFirst({
    where: { OR: [{ emailNormalized: mailbox }, { userNameNormalized: mailbox }] },
    select: { id: true, emailNormalized: true, isActive: true, deletedAt: true },
  });
  if (clash) return clash.isActive && !clash.deletedAt && clash.emailNormalized === mailbox ? { kind: 'existing', userId: clash.id } : { kind: 'refused' };

  const inviteCode = input.inviteCode?.trim() ? input.inviteCode : null;
  if (s.SelfRegistration.RequireInviteCode && !inviteCode) throw new AppError('Registration.InviteCodeRequired');
  let inviteCodeId: string | null = null;
  if (inviteCode) {
    // Guessing codes is the attack here: every check counts against the caller's address, and
    // against the App whose codes are guessed (many addresses together).
    await limitRequestRate(ctx, 'invite-code-redeem', input.appId);
    inviteCodeId = await findActiveInviteCode(tx, input.appId, inviteCode);
    if (!inviteCodeId) throw new AppError('Registration.InviteCodeInvalid');
  }
  const email = input.email.trim();
  const { id } = await insertUser(tx, ctx.realm, { userName: email, email, emailConfirmed: true });
  if (inviteCodeId && !(await consumeInviteCode(tx, inviteCodeId, id))) throw new AppError('Registration.InviteCodeInvalid');
  return { kind: 'created', userId: id, inviteCodeId };
}

/** The events of a JIT account, after commit (PII-free). */
export async function publishJitRegistered(ctx: DomainContext, result: Extract<JitResult, { kind: 'created' }>, appId: string): Promise<void> {
  await publish(
    eventFrom(ctx, 'user.registered', result.userId, {
      userId: result.userId,
      hasPassword: false,
      appId,
      inviteCode: Boolean(result.inviteCodeId),
      posture: 'JitOnOtp',
    }),
  );
  if (result.inviteCodeId) await publish(eventFrom(ctx, 'invite.code-redeemed', result.inviteCodeId, { appId, userId: result.userId }));
}
