import { seal } from '../../crypto/secret-box';
import { newId, randomToken } from '../../crypto/tokens';
import { isUniqueViolation } from '../../db/errors';
import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError, isAppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import type { RealmRecord } from '../../realm/realm-record';
import { completeFirstFactor, type SignInOutcome } from '../auth/sign-in';
import type { UpstreamIdentity } from '../external-identity/upstream-identity';
import type { ProviderRow } from '../login-providers/repo';
import { identityClash } from '../users/identity-uniqueness';
import { insertUser, normalizeEmail, normalizeUserName } from '../users/insert-user';
import { userColumns, type UserRecord } from '../users/repo';
import { userFieldRules } from '../users/schemas';
import { scriptedChanges, type UserChanges } from './scripted-changes';

// Who an upstream identity is here (CONTRACT.md "External identity"; spec 4.5 step 5). The link
// (issuer, subject) decides when it exists. A first sign-in links, in this order: to the signed-in
// person who asked for it (a link they started from the account page and confirmed, pending-link.ts:
// never merely because their cookie came along, issue 30 item 6); else to the account whose
// confirmed e-mail the upstream vouches for (email_verified: an unconfirmed local address could have
// been registered by someone else to capture the link); else to a person created just in time when
// the provider allows it; else it is refused. The UserUpdateScript runs at every sign-in, before
// anything is written, and may change the person's fields or deny the sign-in.

export type ExternalSignInResult =
  | { kind: 'signed-in'; outcome: SignInOutcome; userId: string }
  /** The signed-in person linked another identity: their session stays as it is. */
  | { kind: 'linked'; userId: string }
  /** The upstream answered a link the person asked for: it waits for their confirmation (pending-link.ts). */
  | { kind: 'link-pending'; userId: string; token: string };

type How = 'existing' | 'signed-in' | 'verified-email' | 'jit';

/**
 * `linkTo`: the person whose confirmed link request this is (pending-link.ts); the only way an
 * identity is linked to someone other than who it resolves to.
 * `signedInAs`: the person whose session came with a sign-in (not a link): the sign-in must resolve
 * to them, else it is refused, so a cross-site navigation can neither link an identity to them nor
 * swap their session for someone else's.
 */
export type SignInOptions = { linkTo?: string; signedInAs?: string };

export async function signInWithUpstream(
  ctx: DomainContext,
  provider: ProviderRow,
  identity: UpstreamIdentity,
  idToken?: string,
  options: SignInOptions = {},
): Promise<ExternalSignInResult> {
  try {
    return await attempt(ctx, provider, identity, idToken, options);
  } catch (e) {
    // Two first sign-ins of the same identity at once: the loser finds the winner's link.
    if (isUniqueViolation(e, 'subject')) return attempt(ctx, provider, identity, idToken, options);
    throw e;
  }
}

async function attempt(
  ctx: DomainContext,
  provider: ProviderRow,
  identity: UpstreamIdentity,
  idToken: string | undefined,
  options: SignInOptions,
): Promise<ExternalSignInResult> {
  const db = await realmDb(ctx.realm);
  const signedIn = options.linkTo;
  const link = await db.externalLink.findUnique({
    where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } },
    select: { id: true, userId: true },
  });
  if (link && signedIn && link.userId !== signedIn) {
    await refused(ctx, provider, 'linked-to-another-person', signedIn);
    throw new AppError('ExternalLink.Taken', { detail: `This ${provider.name} account is already linked to another person here.` });
  }

  let how: How = 'existing';
  let user: UserRecord | null = null;
  if (link) user = await db.user.findUnique({ where: { id: link.userId }, select: userColumns });
  else if (signedIn) {
    how = 'signed-in';
    user = await db.user.findUnique({ where: { id: signedIn }, select: userColumns });
  } else if (identity.email && identity.emailVerified && userFieldRules.email.safeParse(identity.email).success) {
    // An address the admin API would refuse (a control character, say) is nobody's here; JIT refuses it below.
    const owner = await db.user.findUnique({ where: { emailNormalized: normalizeEmail(identity.email) }, select: userColumns });
    if (owner && !owner.emailConfirmed) {
      await refused(ctx, provider, 'email-not-confirmed-here', owner.id);
      throw new AppError('ExternalLogin.Refused', {
        detail: `An account here uses this e-mail address but has not confirmed it. Sign in to that account and link ${provider.name} from your account page.`,
      });
    }
    if (owner) {
      how = 'verified-email';
      user = owner;
    }
  }
  if (options.signedInAs && user?.id !== options.signedInAs) {
    await refused(ctx, provider, 'signed-in-as-another-person', options.signedInAs);
    throw new AppError('ExternalLogin.Refused', {
      detail: `You are signed in here as someone else than this ${provider.name} account. Sign out first, or link it from your account page.`,
    });
  }
  if (user && (!user.isActive || user.deletedAt)) {
    await refused(ctx, provider, 'inactive', user.id);
    throw new AppError('ExternalLogin.Refused', { detail: 'This account is deactivated.' });
  }
  if (!user) {
    if (!provider.config.Jit.Enabled) {
      await refused(ctx, provider, 'no-account');
      throw new AppError('ExternalLogin.Refused', {
        detail: `No account here is linked to this ${provider.name} account, and ${provider.name} does not create accounts. Ask an administrator, or sign in another way and link it from your account page.`,
      });
    }
    how = 'jit';
  }

  const script = await scriptedChanges(provider, identity, user);
  if (script.kind !== 'update') {
    await refused(ctx, provider, script.kind === 'deny' ? 'denied-by-script' : 'script-failed', user?.id, script.reason);
    throw new AppError('ExternalLogin.Refused', {
      detail: script.kind === 'deny' ? script.reason : `The sign-in rules of ${provider.name} failed: ${script.reason}`,
    });
  }

  const userId = await writeSignIn(ctx, provider, identity, { how, user, link, changes: script.changes });
  if (how === 'signed-in') return { kind: 'linked', userId };
  const outcome = await completeFirstFactor(ctx, userId, 'fed', undefined, {
    loginProviderId: provider.id,
    provider: provider.name,
    idTokenSealed: idToken ? await seal(idToken) : undefined,
  });
  return { kind: 'signed-in', outcome, userId };
}

type Plan = { how: How; user: UserRecord | null; link: { id: string } | null; changes: UserChanges };

/** The user, the link and the script's changes, in one transaction; publishes after commit. */
async function writeSignIn(ctx: DomainContext, provider: ProviderRow, identity: UpstreamIdentity, plan: Plan): Promise<string> {
  const db = await realmDb(ctx.realm);
  const now = new Date();
  const written = await db
    .$transaction(async (tx) => {
      let userId = plan.user?.id;
      let changed: string[] = [];
      if (!userId) userId = await createJitUser(tx, ctx.realm, provider, identity, plan.changes);
      else changed = await updateUser(tx, userId, plan.user!, plan.changes, identity);
      let linkId = plan.link?.id;
      if (linkId) await tx.externalLink.update({ where: { id: linkId }, data: { lastUsedAt: now } });
      else {
        linkId = newId();
        await tx.externalLink.create({
          data: { id: linkId, userId, loginProviderId: provider.id, issuer: identity.issuer, subject: identity.subject, lastUsedAt: now },
        });
      }
      return { userId, linkId, changed };
    })
    .catch(async (e: unknown) => {
      // The script (or the upstream) named an address another person has (as address or user name).
      if ((isUniqueViolation(e) && !isUniqueViolation(e, 'subject')) || (isAppError(e) && (e.code === 'User.EmailTaken' || e.code === 'User.UserNameTaken'))) {
        await refused(ctx, provider, 'taken-name-or-email', plan.user?.id);
        throw new AppError('ExternalLogin.Refused', { detail: 'The user name or e-mail address this sign-in would set belongs to another account here.' });
      }
      throw e;
    });
  if (plan.how === 'jit') await publish(eventFrom(ctx, 'user.created', written.userId, { userId: written.userId, hasPassword: false, isActive: true }));
  else if (written.changed.length) await publish(eventFrom(ctx, 'user.updated', written.userId, { userId: written.userId, changed: written.changed }));
  if (plan.how !== 'existing') {
    await publish(
      eventFrom(ctx, 'external-link.linked', written.userId, {
        userId: written.userId,
        linkId: written.linkId,
        loginProviderId: provider.id,
        provider: provider.name,
        how: plan.how,
      }),
    );
  }
  return written.userId;
}

/**
 * A person created just in time holds only what the admin API would accept (users/schemas.ts) and
 * no identifier of another person (users/identity-uniqueness.ts): an address that fails the e-mail
 * rule (a control character, say) or that someone else holds is refused; a user name that fails the
 * rule or is taken (another person's name or address, e.g. an upstream asserting the administrator's
 * address as preferred_username) falls back to a free one made from the address's local part.
 * Names beyond the rules are left empty.
 */
async function createJitUser(tx: RealmTx, realm: RealmRecord, provider: ProviderRow, identity: UpstreamIdentity, changes: UserChanges): Promise<string> {
  const email = changes.Email ?? identity.email;
  if (!email) {
    throw new AppError('ExternalLogin.Refused', {
      detail: `${provider.name} did not give an e-mail address, which every account here needs. A UserUpdateScript can supply one.`,
    });
  }
  if (!userFieldRules.email.safeParse(email).success) {
    throw new AppError('ExternalLogin.Refused', { detail: `${provider.name} gave an e-mail address this realm does not accept.` });
  }
  const userName = await freeUserName(tx, changes.UserName ?? identity.userName ?? email, email);
  const name = (value: string | null | undefined) => (value && userFieldRules.personName.safeParse(value).success ? value : null);
  const { id } = await insertUser(tx, realm, {
    userName,
    email,
    // Only an address the upstream vouched for counts as confirmed.
    emailConfirmed: identity.emailVerified && !!identity.email && normalizeEmail(email) === normalizeEmail(identity.email),
    firstname: changes.Firstname !== undefined ? changes.Firstname : name(identity.firstname),
    lastname: changes.Lastname !== undefined ? changes.Lastname : name(identity.lastname),
    acronym: changes.Acronym ?? null,
  });
  const groupIds = provider.config.Jit.DefaultGroupIds;
  if (groupIds.length) {
    // Groups deleted since the provider was configured are skipped, not an error at sign-in.
    const existing = await tx.group.findMany({ where: { id: { in: groupIds } }, select: { id: true } });
    for (const g of existing) await tx.groupMember.create({ data: { groupId: g.id, userId: id } });
  }
  return id;
}

const isUserName = (name: string) => name === name.trim() && userFieldRules.userName.safeParse(name).success;

/**
 * The proposed name when the user-name rules accept it and nobody holds it (as name or address);
 * else the local part of the person's own address, then that with a short random suffix.
 */
async function freeUserName(tx: RealmTx, proposed: string, email: string): Promise<string> {
  const local =
    email
      .slice(0, email.lastIndexOf('@'))
      .replace(/[\s\p{C}]+/gu, '')
      .slice(0, 100) || 'user';
  for (const candidate of [proposed.trim(), local]) if (isUserName(candidate) && !(await identityClash(tx, { userName: candidate }))) return candidate;
  for (let attempt = 0; attempt < 5; attempt++) {
    const candidate = `${local}-${randomToken(4).slice(0, 6).toLowerCase()}`;
    if (isUserName(candidate) && !(await identityClash(tx, { userName: candidate }))) return candidate;
  }
  throw new AppError('ExternalLogin.Refused', { detail: 'No free user name could be found for this account; ask an administrator.' });
}

/**
 * The UserUpdateScript's changes to a person who exists. Its values already meet the admin API's
 * field rules (external-identity/user-update-script.ts); a user name or address another person
 * holds is skipped (the person keeps their own, and still signs in), so a script can never make
 * one sign-in name match two people.
 */
async function updateUser(tx: RealmTx, userId: string, current: UserRecord, changes: UserChanges, identity: UpstreamIdentity): Promise<string[]> {
  const data: RealmPrisma.UserUpdateInput = {};
  const changed: string[] = [];
  if (changes.UserName !== undefined && changes.UserName !== current.userName && !(await identityClash(tx, { userName: changes.UserName }, userId))) {
    data.userName = changes.UserName.trim();
    data.userNameNormalized = normalizeUserName(changes.UserName);
    changed.push('UserName');
  }
  if (
    changes.Email !== undefined &&
    normalizeEmail(changes.Email) !== normalizeEmail(current.email) &&
    !(await identityClash(tx, { email: changes.Email }, userId))
  ) {
    data.email = changes.Email.trim();
    data.emailNormalized = normalizeEmail(changes.Email);
    data.emailConfirmed = identity.emailVerified && !!identity.email && normalizeEmail(changes.Email) === normalizeEmail(identity.email);
    changed.push('Email');
  }
  for (const [field, column] of [
    ['Firstname', 'firstname'],
    ['Lastname', 'lastname'],
    ['Acronym', 'acronym'],
  ] as const) {
    const value = changes[field];
    if (value !== undefined && value !== current[column]) {
      data[column] = value;
      changed.push(field);
    }
  }
  if (changed.length) await tx.user.update({ where: { id: userId }, data: { ...data, updatedAt: new Date() } });
  return changed;
}

/** A refused external sign-in, in the security log with the provider and the reason. */
async function refused(ctx: DomainContext, provider: ProviderRow, reason: string, userId?: string, detail?: string): Promise<void> {
  await publish(
    eventFrom(ctx, 'auth.external-login-refused', userId, {
      success: false,
      reason: detail ? `${reason}: ${detail.slice(0, 300)}` : reason,
      userId,
      loginProviderId: provider.id,
      provider: provider.name,
    }),
  );
}
