import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { patchFlag, patchKey, patchText, sentFields } from '../merge-patch';
import { nameTaken } from './create-position';
import { assertPositionTerminalsEnabled } from './feature';
import { toPositionDto } from './position-dto';
import { normalizePositionName, requirePositionRow, terminalClientIds } from './repo';
import type { PositionDto, UpdatePositionInput } from './schemas';

// PUT /api/position/{id}: merge-patch (spec 4.9). Deactivating a position keeps its terminals (they
// still work and their tokens still name it) but it takes no new ones until it is active again.
export async function updatePosition(ctx: DomainContext, id: string, patch: UpdatePositionInput): Promise<PositionDto> {
  await assertPositionTerminalsEnabled(ctx.realm);
  await requirePermission(ctx, 'position:write');
  const db = await realmDb(ctx.realm);
  await requirePositionRow(db, id);
  const name = patchKey(patch.Name);
  await onUniqueViolation(
    () =>
      db.position.update({
        where: { id },
        data: {
          name,
          nameNormalized: name === undefined ? undefined : normalizePositionName(name),
          description: patchText(patch.Description),
          isActive: patchFlag(patch.IsActive),
          updatedAt: new Date(),
        },
      }),
    nameTaken(name ?? ''),
  );
  await publish(eventFrom(ctx, 'position.updated', id, { positionId: id, changed: sentFields(patch) }));
  return toPositionDto(await requirePositionRow(db, id), { count: 0, clientIds: await terminalClientIds(db, id) });
}
