import { hashPassword } from '../../auth/passwords';
import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { optionalText } from '../merge-patch';
import { insertUser } from './insert-user';
import { assertPasswordAllowed } from './password-rules';
import { requireUserRow, type UserRow } from './repo';
import type { CreateUserInput } from './schemas';

// POST /api/user (spec 4.7, CONTRACT.md "Admin payloads"): UserName, Email, Firstname?, Lastname?,
// Password?, IsActive?. A user without a password signs in by another method (e-mail code, passkey,
// magic link) or gets one through PUT /api/user/{id}/password.
export async function createUser(ctx: DomainContext, input: CreateUserInput): Promise<UserRow> {
  await requirePermission(ctx, 'user:write');
  const password = input.Password || undefined;
  if (password) await assertPasswordAllowed(ctx.realm, password, { userName: input.UserName, email: input.Email });
  const passwordHash = password ? await hashPassword(password) : null;
  const db = await realmDb(ctx.realm);
  // insertUser refuses an identifier another person holds; a unique violation is a concurrent create.
  const id = await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        const created = await insertUser(tx, ctx.realm, {
          userName: input.UserName,
          email: input.Email,
          firstname: optionalText(input.Firstname),
          lastname: optionalText(input.Lastname),
          acronym: optionalText(input.Acronym),
          passwordHash,
          isActive: input.IsActive ?? true,
          emailConfirmed: input.EmailConfirmed ?? false,
        });
        return created.id;
      }),
    'User.UserNameTaken',
    { email: 'User.EmailTaken' },
  );
  await publish(eventFrom(ctx, 'user.created', id, { userId: id, hasPassword: Boolean(passwordHash), isActive: input.IsActive ?? true }));
  return requireUserRow(db, id);
}
