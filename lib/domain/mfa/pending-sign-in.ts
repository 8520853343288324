import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import {
  offeredSecondFactors,
  requireUserFacts,
  startSession,
  type AuthMethod,
  type PendingSignIn,
  type UpstreamSignIn,
  type SecondFactor,
  type SignInOutcome,
} from '../auth/sign-in';
import { redeemToken } from '../one-time-secrets/one-time-secrets';
import { secretPurposes } from '../one-time-secrets/purposes';

// The sign-in that waits for a second factor (or, with `setupOnly`, for the enrolment of one): the
// `mfa-pending` one-time secret named by the `gatehouse_mfa` cookie. It is read without being
// consumed; each wrong second-factor code counts against it (the purpose's attempt limit), and it
// is consumed when the sign-in completes. A missing, expired, used or exhausted one answers 401
// SignIn.NoPendingSignIn: the person starts again with the first factor.

export type PendingUser = { id: string; userName: string; email: string; twoFactorEnabled: boolean };

export type Pending = { id: string; amr: AuthMethod[]; setupOnly: boolean; upstream?: UpstreamSignIn; user: PendingUser };

/** The upstream carried by a pending sign-in, when it has the expected shape (it is our own data, read back). */
function upstreamOf(value: unknown): UpstreamSignIn | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.loginProviderId !== 'string' || typeof v.provider !== 'string') return undefined;
  return { loginProviderId: v.loginProviderId, provider: v.provider, idTokenSealed: typeof v.idTokenSealed === 'string' ? v.idTokenSealed : undefined };
}

const AMR: ReadonlySet<string> = new Set<AuthMethod>(['pwd', 'otp', 'mail', 'hwk', 'fed']);

function noPending(): AppError {
  return new AppError('SignIn.NoPendingSignIn');
}

/**
 * The pending sign-in a second step continues. `method` names that step for the security log: a
 * try without a live pending sign-in is recorded as a failed `auth.second-factor-failed`.
 */
export async function readPendingSignIn(ctx: DomainContext, token: string | undefined, method?: string): Promise<Pending> {
  try {
    return await loadPending(ctx, token);
  } catch (e) {
    if (method) await publish(eventFrom(ctx, 'auth.second-factor-failed', undefined, { success: false, method, reason: 'no-pending-sign-in' }));
    throw e;
  }
}

async function loadPending(ctx: DomainContext, token: string | undefined): Promise<Pending> {
  if (!token) throw noPending();
  const db = await realmDb(ctx.realm);
  const r = await redeemToken(db, 'mfa-pending', token, { consume: false });
  if (!r.ok || !r.record.userId) throw noPending();
  const row = await db.oneTimeSecret.findUnique({ where: { id: r.record.id }, select: { attempts: true } });
  if (!row || row.attempts >= secretPurposes['mfa-pending'].maxAttempts) throw noPending();
  const user = await db.user.findUnique({
    where: { id: r.record.userId },
    select: { id: true, userName: true, email: true, twoFactorEnabled: true, isActive: true, deletedAt: true },
  });
  if (!user || !user.isActive || user.deletedAt) throw noPending();
  const data = (r.record.data ?? {}) as Partial<PendingSignIn>;
  const amr = Array.isArray(data.amr) ? data.amr.filter((m): m is AuthMethod => typeof m === 'string' && AMR.has(m)) : [];
  return {
    id: r.record.id,
    amr,
    setupOnly: data.setupOnly === true,
    upstream: upstreamOf(data.upstream),
    user: { id: user.id, userName: user.userName, email: user.email, twoFactorEnabled: user.twoFactorEnabled },
  };
}

/**
 * The second factors that can finish this pending sign-in: what its first factor left to prove and
 * the account has enrolled (offeredSecondFactors), so a page or route never offers one that fails.
 */
export async function secondFactorsOfPending(ctx: DomainContext, pending: Pending): Promise<SecondFactor[]> {
  if (pending.setupOnly) return [];
  const user = await requireUserFacts(ctx, pending.user.id);
  return offeredSecondFactors(ctx, user, pending.amr[0] ?? 'pwd');
}

/** The second factors the hosted step-two page offers for the pending cookie; null when there is no live pending sign-in. */
export async function pendingSecondFactors(ctx: DomainContext, token: string | undefined): Promise<SecondFactor[] | null> {
  try {
    return await secondFactorsOfPending(ctx, await loadPending(ctx, token));
  } catch (e) {
    if (e instanceof AppError && e.code === 'SignIn.NoPendingSignIn') return null;
    throw e;
  }
}

/** A wrong second-factor code: one attempt less; the last one ends the pending sign-in. */
export async function countPendingFailure(ctx: DomainContext, pending: Pending): Promise<void> {
  const db = await realmDb(ctx.realm);
  const row = await db.oneTimeSecret.update({ where: { id: pending.id }, data: { attempts: { increment: 1 } }, select: { attempts: true } });
  if (row.attempts >= secretPurposes['mfa-pending'].maxAttempts) {
    await db.oneTimeSecret.updateMany({ where: { id: pending.id, usedAt: null }, data: { usedAt: new Date() } });
  }
}

/** Consumes the pending sign-in (once, even under concurrent requests) and opens the session. */
export async function finishPendingSignIn(ctx: DomainContext, pending: Pending, method: AuthMethod): Promise<Extract<SignInOutcome, { kind: 'session' }>> {
  const db = await realmDb(ctx.realm);
  const used = await db.oneTimeSecret.updateMany({ where: { id: pending.id, usedAt: null }, data: { usedAt: new Date() } });
  if (used.count !== 1) throw noPending();
  const amr = [...pending.amr, method];
  const sessionToken = await startSession(ctx, pending.user, amr, pending.upstream);
  return { kind: 'session', sessionToken, body: { authenticated: true, userId: pending.user.id, userName: pending.user.userName } };
}
