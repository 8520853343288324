import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertPositionTerminalsEnabled } from './feature';
import { lockPosition, terminalClientIds } from './repo';

// DELETE /api/position/{id}. A position whose terminals still exist is not deleted (409 naming them):
// detaching them silently would leave clients whose tokens no longer say where they act, and
// deleting them would revoke working devices. Delete or re-create those clients first.
export async function deletePosition(ctx: DomainContext, id: string): Promise<void> {
  await assertPositionTerminalsEnabled(ctx.realm);
  await requirePermission(ctx, 'position:write');
  const db = await realmDb(ctx.realm);
  await db.$transaction(async (tx) => {
    // The lock first: a terminal being attached now either committed (and is counted) or waits and then finds no position.
    if (!(await lockPosition(tx, id)).exists) throw new AppError('Position.NotFound');
    const terminals = await terminalClientIds(tx, id);
    if (terminals.length) {
      throw new AppError('Position.InUse', {
        detail: `Delete these terminals (OAuth clients) first: ${terminals.join(', ')}.`,
        extensions: { terminals },
      });
    }
    await tx.position.delete({ where: { id } });
  });
  await publish(eventFrom(ctx, 'position.deleted', id, { positionId: id }));
}
