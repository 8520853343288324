import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import type { UpstreamIdentity } from '../external-identity/upstream-identity';
import { activeProvider, type ProviderRow } from '../login-providers/repo';
import { issueSecret, redeemToken } from '../one-time-secrets/one-time-secrets';
import { secretPurposes } from '../one-time-secrets/purposes';
import type { PendingLinkDto } from '../login-providers/schemas';
import { isSameSession, type LinkIntent } from './link-intent';
import { signInWithUpstream, type ExternalSignInResult } from './link-or-create';

// The last step of linking (issue 30 item 6): the upstream answered a link the person started from
// the account page; the identity waits here, server-side, as a one-time secret of ten minutes whose
// token only the person's browser holds (pending-link-cookie.ts), bound to the session that started
// the link. The confirmation page names the upstream account, and only its CSRF-checked POST, from
// that same session, links it.

type Pending = { providerId: string; flavor: 'Oidc' | 'Saml'; intent: LinkIntent; identity: UpstreamIdentity };

/**
 * The upstream's answer to a link: nothing is linked yet. An identity already linked to this person
 * needs no confirmation; one linked to someone else is refused now, not after the question.
 */
export async function holdPendingLink(
  ctx: DomainContext,
  provider: ProviderRow,
  identity: UpstreamIdentity,
  intent: LinkIntent,
): Promise<ExternalSignInResult> {
  const db = await realmDb(ctx.realm);
  const link = await db.externalLink.findUnique({
    where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } },
    select: { userId: true },
  });
  if (link?.userId === intent.userId) return { kind: 'linked', userId: intent.userId };
  if (link) {
    await refusedLink(ctx, provider, intent.userId, 'linked-to-another-person');
    throw new AppError('ExternalLink.Taken', { detail: `This ${provider.name} account is already linked to another person here.` });
  }
  const data: Pending = { providerId: provider.id, flavor: provider.flavor === 'Saml' ? 'Saml' : 'Oidc', intent, identity };
  const { secret } = await issueSecret(db, { purpose: 'external-link-pending', userId: intent.userId, data, replacePrevious: true });
  return { kind: 'link-pending', token: secret, userId: intent.userId };
}

/** What the confirmation page shows: the upstream account, and the provider it is at. */
export async function pendingLinkOf(ctx: DomainContext, token: string | undefined): Promise<PendingLinkDto> {
  const { pending, provider, expiresAt } = await readPending(ctx, token, false);
  return {
    LoginProviderId: provider.id,
    Provider: provider.name,
    Account: accountName(pending.identity),
    Email: pending.identity.email,
    Issuer: pending.identity.issuer,
    Subject: pending.identity.subject,
    ExpiresAt: expiresAt,
  };
}

/** The confirmation: links the identity to the person (the UserUpdateScript runs as at a sign-in). */
export async function confirmPendingLink(ctx: DomainContext, token: string | undefined): Promise<void> {
  const { pending, provider } = await readPending(ctx, token, true);
  await signInWithUpstream(ctx, provider, pending.identity, undefined, { linkTo: pending.intent.userId });
}

/** The person said no: the pending link is gone. */
export async function cancelPendingLink(ctx: DomainContext, token: string | undefined): Promise<void> {
  await readPending(ctx, token, true);
}

async function readPending(
  ctx: DomainContext,
  token: string | undefined,
  consume: boolean,
): Promise<{ pending: Pending; provider: ProviderRow; expiresAt: Date }> {
  const none = () => new AppError('ExternalLink.NotFound', { detail: 'No link is waiting for your confirmation. Start again from your account page.' });
  if (!token) throw none();
  const db = await realmDb(ctx.realm);
  // Read first, then consume: a request from another session must not use up the person's link.
  const seen = await redeemToken(db, 'external-link-pending', token, { consume: false });
  if (!seen.ok) throw none();
  const pending = seen.record.data as Pending;
  if (!isSameSession(ctx, pending.intent)) {
    await publish(
      eventFrom(ctx, 'auth.external-login-refused', pending.intent.userId, {
        success: false,
        reason: 'link-confirmed-from-another-session',
        userId: pending.intent.userId,
        loginProviderId: pending.providerId,
        provider: '',
      }),
    );
    throw none();
  }
  if (consume && !(await redeemToken(db, 'external-link-pending', token)).ok) throw none();
  const provider = await activeProvider(db, pending.providerId, pending.flavor);
  if (!provider) throw new AppError('LoginProvider.NotFound');
  const expiresAt = new Date(seen.record.createdAt.getTime() + secretPurposes['external-link-pending'].ttlMinutes * 60_000);
  return { pending, provider, expiresAt };
}

/** The name a person knows their upstream account by: its address, its user name, else its subject. */
function accountName(identity: UpstreamIdentity): string {
  return identity.email ?? identity.userName ?? identity.subject;
}

async function refusedLink(ctx: DomainContext, provider: ProviderRow, userId: string, reason: string): Promise<void> {
  await publish(
    eventFrom(ctx, 'auth.external-login-refused', userId, { success: false, reason, userId, loginProviderId: provider.id, provider: provider.name }),
  );
}
