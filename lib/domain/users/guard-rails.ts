import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../../realm/context';

// Guard rail (spec 4.7 "Users"): an administrator cannot delete or deactivate the account they are
// signed in with; it would end their own session half-way through the change.
export function assertNotSelf(ctx: DomainContext, userIds: readonly string[]): void {
  if (ctx.actor.kind === 'user' && userIds.includes(ctx.actor.userId)) throw new AppError('User.CannotDeactivateSelf');
}
