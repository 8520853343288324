import { requirePermission } from '../../authz/require-permission';
import { getRealmDb } from '../../db/realm-pool';
import { notFound } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { getRealmRecordBySlug } from '../../realm/realm-store';
import type { RealmRecord } from '../../realm/realm-record';
import type { DomainContext } from '../../realm/context';
import type { AdminInviteDto, InitialAdminInput } from './schemas';
import { issueAdminInviteTx } from './admin-invite';

/** POST /api/admin/realms/{slug}/admin-invites (spec 3.3, 4.8). */
export async function inviteRealmAdmin(ctx: DomainContext, slug: string, input: InitialAdminInput): Promise<AdminInviteDto> {
  await requirePermission(ctx, 'realm:write', 'control-plane');
  const realm = await getRealmRecordBySlug(slug);
  if (!realm) throw notFound();
  return issueInviteFor(ctx, realm, input);
}

/** Issues the invite in `realm` (also used by `gatehouse recover bootstrap-admin`). */
export async function issueInviteFor(ctx: DomainContext, realm: RealmRecord, input: InitialAdminInput): Promise<AdminInviteDto> {
  const db = await getRealmDb(realm.databaseName);
  const { id, ...dto } = await db.$transaction((tx) => issueAdminInviteTx(tx, realm, input));
  // The platform log is PII-free: the invitee's name and address stay out of it.
  await publish(eventFrom(ctx, 'realm.admin-invite-issued', realm.id, { slug: realm.slug, inviteId: id }));
  return dto;
}
