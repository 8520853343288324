import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { optionalText } from '../merge-patch';
import { assertPositionTerminalsEnabled } from './feature';
import { toPositionDto } from './position-dto';
import { normalizePositionName, requirePositionRow } from './repo';
import type { CreatePositionInput, PositionDto } from './schemas';

// POST /api/position (spec 4.7 "Positions"): Name (unique regardless of case), Description?, IsActive?.

export function nameTaken(name: string): AppError {
  return new AppError('Position.NameTaken', { errors: { Name: [`A position named ${name} already exists.`] } });
}

export async function createPosition(ctx: DomainContext, input: CreatePositionInput): Promise<PositionDto> {
  await assertPositionTerminalsEnabled(ctx.realm);
  await requirePermission(ctx, 'position:write');
  const db = await realmDb(ctx.realm);
  const id = newId();
  const isActive = input.IsActive ?? true;
  await onUniqueViolation(
    () =>
      db.position.create({
        data: { id, name: input.Name, nameNormalized: normalizePositionName(input.Name), description: optionalText(input.Description), isActive },
      }),
    nameTaken(input.Name),
  );
  await publish(eventFrom(ctx, 'position.created', id, { positionId: id, isActive }));
  return toPositionDto(await requirePositionRow(db, id), { count: 0, clientIds: [] });
}
