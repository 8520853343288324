import { newId } from '../../crypto/tokens';
import { validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { authorizeInviteCodes } from './access';
import { generateInviteCode, canonicalInviteCode, inviteCodeHash } from './code';
import { inviteCodeColumns, requireAppId, toInviteCodeDto } from './repo';
import type { InviteCodeDto, MintInviteCodesInput } from './schemas';

export type MintedInviteCode = InviteCodeDto & { Code: string };

/**
 * POST /api/app/{id}/invite-codes (spec 4.7): mints one code (answered with `Code`) or `Count` codes
 * (answered with `Codes`). The plaintext leaves only in this answer; the store keeps its SHA-256.
 */
export async function mintInviteCodes(
  ctx: DomainContext,
  appIdOrSlug: string,
  input: MintInviteCodesInput,
): Promise<MintedInviteCode | { Codes: MintedInviteCode[] }> {
  await authorizeInviteCodes(ctx, 'write', appIdOrSlug);
  const expiresAt = input.ExpiresAt ? new Date(input.ExpiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw validationError({ ExpiresAt: ['ExpiresAt must be in the future.'] });
  const db = await realmDb(ctx.realm);
  const appId = await requireAppId(db, appIdOrSlug);
  const createdBy = ctx.actor.kind === 'user' ? ctx.actor.userId : null;
  const count = input.Count ?? 1;
  const now = new Date();
  const fresh = Array.from({ length: count }, () => ({ id: newId(), code: generateInviteCode() }));
  const rows = await db.$transaction(async (tx) => {
    await tx.inviteCode.createMany({
      data: fresh.map((f) => ({
        id: f.id,
        appId,
        codeHash: inviteCodeHash(canonicalInviteCode(f.code)!),
        label: input.Label || null,
        createdAt: now,
        createdBy,
        expiresAt,
      })),
    });
    return tx.inviteCode.findMany({ where: { id: { in: fresh.map((f) => f.id) } }, select: inviteCodeColumns });
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const minted = fresh.map((f) => ({ ...toInviteCodeDto(byId.get(f.id)!, now), Code: f.code }));
  await publish(eventFrom(ctx, 'invite.codes-minted', appId, { appId, count, expiresAt: expiresAt?.toISOString() ?? null }));
  return input.Count == null ? minted[0] : { Codes: minted };
}
