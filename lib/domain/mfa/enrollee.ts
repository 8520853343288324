import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../../realm/context';
import { readPendingSignIn, type Pending } from './pending-sign-in';

// Who enrols an authenticator: the signed-in user, or (grace period over, spec 5.5) the person
// holding a setup-only pending sign-in, who is signed in once the authenticator is confirmed.
export type Enrollee = { userId: string; pending?: Pending };

export async function enrollee(ctx: DomainContext, pendingToken: string | undefined): Promise<Enrollee> {
  if (ctx.actor.kind === 'user') return { userId: ctx.actor.userId };
  if (!pendingToken) throw new AppError('Auth.Unauthenticated');
  const pending = await readPendingSignIn(ctx, pendingToken);
  // A pending second factor is no licence to change the account's authenticator.
  if (!pending.setupOnly) throw new AppError('Auth.Unauthenticated');
  return { userId: pending.user.id, pending };
}
