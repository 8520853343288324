import { requirePermission, requireUser } from '../../authz/require-permission';
import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import type { ExternalLinkDto } from '../login-providers/schemas';
import { assertCanManageUsers } from '../users/can-manage';
import { lockUserRow, remainingSignInMethods } from '../users/sign-in-methods';
import { requireUserRecord } from '../users/repo';

// A person's linked upstream identities (spec 3.6, 4.5): GET/DELETE /api/account/external-links and
// the admin routes under /api/admin/users/{id}/external-links. Removing a link hard-deletes it, so the
// (issuer, subject) pair can be linked again; it is refused when it is the last way to sign in.

async function linksOf(db: RealmTx, userId: string): Promise<ExternalLinkDto[]> {
  const rows = await db.externalLink.findMany({
    where: { userId },
    select: { id: true, loginProviderId: true, issuer: true, subject: true, createdAt: true, lastUsedAt: true, loginProvider: { select: { name: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((r) => ({
    Id: r.id,
    LoginProviderId: r.loginProviderId,
    Name: r.loginProvider.name,
    Issuer: r.issuer,
    Subject: r.subject,
    CreatedAt: r.createdAt,
    LastUsedAt: r.lastUsedAt,
  }));
}

export async function listOwnExternalLinks(ctx: DomainContext): Promise<ExternalLinkDto[]> {
  const actor = requireUser(ctx);
  return linksOf(await realmDb(ctx.realm), actor.userId);
}

export async function listUserExternalLinks(ctx: DomainContext, userId: string): Promise<ExternalLinkDto[]> {
  await requirePermission(ctx, 'user:read');
  const db = await realmDb(ctx.realm);
  await requireUserRecord(db, userId);
  return linksOf(db, userId);
}

async function removeLink(ctx: DomainContext, userId: string, linkId: string, byAdmin: boolean): Promise<void> {
  const db = await realmDb(ctx.realm);
  const removed = await db.$transaction(async (tx) => {
    // Unlinking someone is changing their credentials: an administrator needs what the user holds.
    if (byAdmin) await assertCanManageUsers(ctx, tx, [userId]);
    await lockUserRow(tx, userId);
    const link = await tx.externalLink.findFirst({ where: { id: linkId, userId }, select: { id: true, loginProviderId: true } });
    if (!link) throw new AppError('ExternalLink.NotFound');
    if ((await remainingSignInMethods(tx, userId, ctx.realm.primaryDomain, { linkId })) === 0) {
      throw new AppError('Idp.LastAuthMethod', {
        detail: byAdmin
          ? 'This link is the only way this person can sign in. Give them a password or a passkey first.'
          : 'This linked account is your only way to sign in. Set a password or add a passkey first.',
      });
    }
    await tx.externalLink.delete({ where: { id: link.id } });
    return link;
  });
  await publish(eventFrom(ctx, 'external-link.removed', userId, { userId, linkId, loginProviderId: removed.loginProviderId, byAdmin }));
}

export async function deleteOwnExternalLink(ctx: DomainContext, linkId: string): Promise<void> {
  const actor = requireUser(ctx);
  await removeLink(ctx, actor.userId, linkId, false);
}

export async function deleteUserExternalLink(ctx: DomainContext, userId: string, linkId: string): Promise<void> {
  await requirePermission(ctx, 'user:write');
  await requireUserRecord(await realmDb(ctx.realm), userId);
  await removeLink(ctx, userId, linkId, true);
}
