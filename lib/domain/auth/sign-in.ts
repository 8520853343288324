import { notFound } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { realmSettings } from '../realm-settings/realm-settings';
import { securityLogEntryOf } from '../audit/security-log-entry';
import { createSession } from '../sessions/repo';
import { flag } from '../flags/registry';
import { RealmFeatures } from '../realm-settings/features';
import { findUserFacts, type UserFacts } from './sign-in-user-sql';

export type { UserFacts } from './sign-in-user-sql';

// What happens after a person proved a first factor, whatever it was (spec 5.5). Every sign-in
// method calls completeFirstFactor, so the second-factor and secure-setup rules are the same for
// password, e-mail code, magic link, passkey and external sign-in.

/** OIDC `amr` values of the methods (RFC 8176), as stored on the session. */
export type AuthMethod = 'pwd' | 'otp' | 'mail' | 'hwk' | 'fed';

export type SecondFactor = 'totp' | 'email-otp' | 'passkey';

export type SignInOutcome =
  | {
      kind: 'session';
      sessionToken: string;
      body: { authenticated: true; userId: string; userName: string; requiresSecureSetup?: true; gracePeriod?: true; secureSetupDueAt?: Date };
    }
  | { kind: 'second-factor'; pendingToken: string; body: { requiresTwoFactor: true; mfaMethods: SecondFactor[] } }
  | { kind: 'setup-blocked'; pendingToken: string; body: { requiresSecureSetup: true; gracePeriod: false } };

/**
 * The upstream an external sign-in came through (issue 10): named in the security log, and kept on
 * the session with the upstream's sealed ID token for RP-initiated logout at that upstream.
 */
export type UpstreamSignIn = { loginProviderId: string; provider: string; idTokenSealed?: string };

/** Data carried by the pending-second-factor secret (the short-lived `gatehouse_mfa` cookie). */
export type PendingSignIn = { amr: AuthMethod[]; setupOnly?: boolean; upstream?: UpstreamSignIn };

/** A user's second-factor facts; an error when the user is gone (never expected mid sign-in). */
export async function requireUserFacts(ctx: DomainContext, userId: string): Promise<UserFacts> {
  const user = await findUserFacts(await realmDb(ctx.realm), userId);
  if (!user) throw notFound();
  return user;
}

/**
 * The second factors a user can finish a sign-in with, given the first factor used. A passkey counts
 * as a second factor when the user has one and 2FA is on or required for them.
 */
async function secondFactorsOf(
  ctx: DomainContext,
  user: Pick<UserFacts, 'twoFactorEnabled' | 'passkeys'>,
  first: AuthMethod,
  required = false,
): Promise<SecondFactor[]> {
  const [emailOtp, passkeys] = await Promise.all([flag(ctx, RealmFeatures.EmailOtp), flag(ctx, RealmFeatures.Passkeys)]);
  const methods: SecondFactor[] = [];
  if (user.twoFactorEnabled) methods.push('totp');
  // The fallbacks of spec 4.3 (there are no recovery codes): another enrolled method.
  if (user.twoFactorEnabled && emailOtp && first !== 'otp' && first !== 'mail') methods.push('email-otp');
  if ((user.twoFactorEnabled || required) && passkeys && user.passkeys > 0) methods.push('passkey');
  return methods;
}

/**
 * The second factors offered to a user who proved `first`: the one list the sign-in outcome
 * (`mfaMethods`), the hosted second-step page and each second-step route go by.
 */
export async function offeredSecondFactors(ctx: DomainContext, user: UserFacts, first: AuthMethod): Promise<SecondFactor[]> {
  const s = await realmSettings(ctx.realm);
  return first === 'hwk' ? [] : secondFactorsOf(ctx, user, first, twoFactorRequired(user, s.TwoFactor.Required));
}

function twoFactorRequired(user: Pick<UserFacts, 'twoFactorPolicy'>, realmRequires: boolean): boolean {
  return user.twoFactorPolicy === 'Required' || (user.twoFactorPolicy !== 'Exempt' && realmRequires);
}

export async function completeFirstFactor(
  ctx: DomainContext,
  userId: string,
  method: AuthMethod,
  known?: UserFacts,
  upstream?: UpstreamSignIn,
): Promise<SignInOutcome> {
  const db = await realmDb(ctx.realm);
  const user = known ?? (await requireUserFacts(ctx, userId));
  const s = await realmSettings(ctx.realm);
  const required = twoFactorRequired(user, s.TwoFactor.Required);
  // A passkey with user verification is already two factors (possession + biometric or PIN). Any
  // other first factor needs a second one when TOTP is on, or when 2FA is required and the user's
  // enrolled second factor is a passkey.
  const mfaMethods = await offeredSecondFactors(ctx, user, method);
  if (method !== 'hwk' && (user.twoFactorEnabled || (required && mfaMethods.length > 0))) {
    const { secret } = await issueSecret(db, { purpose: 'mfa-pending', userId, data: { amr: [method], upstream } satisfies PendingSignIn });
    await publish(eventFrom(ctx, 'auth.second-factor-required', userId, { userId, userName: user.userName, method }));
    return { kind: 'second-factor', pendingToken: secret, body: { requiresTwoFactor: true, mfaMethods } };
  }
  const secured = user.twoFactorEnabled || user.passkeys > 0;
  if (required && !secured) {
    let due = user.secureSetupDueAt;
    if (!due) {
      due = new Date(Date.now() + s.TwoFactor.GracePeriodDays * 86_400_000);
      await db.user.update({ where: { id: userId }, data: { secureSetupDueAt: due } });
    }
    if (due.getTime() <= Date.now()) {
      // Grace is over: no session, only a setup-only pending sign-in that lets TOTP enrolment finish.
      const { secret } = await issueSecret(db, {
        purpose: 'mfa-pending',
        userId,
        data: { amr: [method], setupOnly: true, upstream } satisfies PendingSignIn,
        ttlMinutes: 15,
      });
      await publish(eventFrom(ctx, 'auth.login-blocked-secure-setup', userId, { userId, userName: user.userName, success: false }));
      return { kind: 'setup-blocked', pendingToken: secret, body: { requiresSecureSetup: true, gracePeriod: false } };
    }
    const session = await startSession(ctx, user, [method], upstream);
    return {
      kind: 'session',
      sessionToken: session,
      body: { authenticated: true, userId, userName: user.userName, requiresSecureSetup: true, gracePeriod: true, secureSetupDueAt: due },
    };
  }
  const session = await startSession(ctx, user, method === 'hwk' ? ['hwk', 'user'] : [method], upstream);
  return { kind: 'session', sessionToken: session, body: { authenticated: true, userId, userName: user.userName } };
}

/**
 * Opens the browser session once every required factor is proven; returns the cookie token. The
 * session, the user's last sign-in and the sign-in's security-log entry are one commit: the audit
 * row can never be missing for a session that exists (a crash between two commits), nor the other way.
 */
export async function startSession(ctx: DomainContext, user: { id: string; userName: string }, amr: string[], upstream?: UpstreamSignIn): Promise<string> {
  const db = await realmDb(ctx.realm);
  // The event names the person, not the session (events carry no session id), so it is built first.
  const signedIn = { ...ctx, actor: { kind: 'user' as const, userId: user.id, userName: user.userName, sessionId: null } };
  const event = eventFrom(signedIn, 'auth.login-succeeded', user.id, {
    method: amr.join('+'),
    ...(upstream ? { provider: upstream.provider, loginProviderId: upstream.loginProviderId } : {}),
  });
  const logEntry = securityLogEntryOf(event);
  const { token } = await createSession(db, {
    userId: user.id,
    amr,
    ipAddress: ctx.ip,
    userAgent: ctx.userAgent,
    touchLastLogin: true,
    replacesToken: ctx.presentedSessionToken,
    loginProviderId: upstream?.loginProviderId,
    upstreamIdTokenSealed: upstream?.idTokenSealed,
    logEntry,
  });
  await publish(logEntry ? { ...event, securityLogged: true } : event);
  return token;
}
