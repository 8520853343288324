import { AppError } from '../../errors/app-error';
import type { ErrorCode } from '../../errors/catalog';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { safeContinuation } from '../../web/continuation';
import { completeFirstFactor, type SignInOutcome } from '../auth/sign-in';
import { realmDb, type DomainContext } from '../../realm/context';
import { redeemToken, type RedeemFailure } from '../one-time-secrets/one-time-secrets';
import { limitRate } from '../realm-settings/rate-limit';
import type { MagicLinkData } from './issue-magic-link';
import { flag } from '../flags/registry';
import { RealmFeatures } from '../realm-settings/features';

// GET /api/account/magic-link/login?token&user (spec 4.3): the token must be live and belong to
// that user, who must still be active. A link that fails any check is not consumed by the failed
// try (a mismatched `user` cannot burn someone's link). A right link proves the mailbox: an
// unconfirmed address becomes confirmed. The sign-in then goes through completeFirstFactor like any
// other first factor (second step, secure set-up).
const FAILURE: Record<RedeemFailure, ErrorCode> = {
  invalid: 'Token.Invalid',
  used: 'Token.Used',
  expired: 'Token.Expired',
  'too-many-attempts': 'Token.Invalid',
};

export type MagicLinkSignIn = { outcome: SignInOutcome; continuation?: string };

export async function magicLinkLogin(ctx: DomainContext, token: string | undefined, userId: string | undefined): Promise<MagicLinkSignIn> {
  if (!userId) {
    await publish(eventFrom(ctx, 'auth.magic-link-failed', undefined, { success: false, reason: 'incomplete-link' }));
    throw new AppError('Token.Invalid');
  }
  const { userId: provenUserId, redirect } = await proveMagicLink(ctx, token, userId);
  const outcome = await completeFirstFactor(ctx, provenUserId, 'mail');
  return { outcome, continuation: safeContinuation(redirect) };
}

/**
 * The proof shared by the hosted magic link and the native `urn:gatehouse:magic` grant (spec 4.4,
 * which sends the token alone: a 256-bit token names its user). With `userId` the token must be
 * that user's.
 */
export async function proveMagicLink(ctx: DomainContext, token: string | undefined, expectedUserId?: string): Promise<{ userId: string; redirect?: string }> {
  const db = await realmDb(ctx.realm);
  const fail = async (code: ErrorCode, reason: string, knownUserId?: string): Promise<never> => {
    await publish(eventFrom(ctx, 'auth.magic-link-failed', knownUserId, { userId: knownUserId, success: false, reason }));
    throw new AppError(code);
  };
  if (!token) return fail('Token.Invalid', 'incomplete-link');
  const peek = await redeemToken(db, 'magic-link', token, { consume: false });
  if (!peek.ok) return fail(FAILURE[peek.reason], peek.reason);
  const userId = peek.record.userId;
  if (!userId || (expectedUserId !== undefined && userId !== expectedUserId)) return fail('Token.Invalid', 'other-user');
  await limitRate(ctx, 'magic-link-login', 'target', userId);
  const data = (peek.record.data ?? {}) as Partial<MagicLinkData>;
  if (data.via !== 'admin' && !(await flag(ctx, RealmFeatures.MagicLink))) return fail('SignIn.MethodDisabled', 'method-disabled', userId);
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, isActive: true, deletedAt: true, emailConfirmed: true } });
  if (!user || !user.isActive || user.deletedAt) return fail('Token.Invalid', 'inactive', userId);
  const used = await redeemToken(db, 'magic-link', token);
  if (!used.ok) return fail(FAILURE[used.reason], used.reason, userId);
  if (!user.emailConfirmed) await db.user.update({ where: { id: userId }, data: { emailConfirmed: true } });
  return { userId, redirect: data.redirect };
}
