import { requireUser } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../../realm/context';
import { toPasskeyDto, validPasskeysOf, type PasskeyDto } from './repo';

/** GET /api/account/passkey: the signed-in user's valid passkeys, oldest first. */
export async function listOwnPasskeys(ctx: DomainContext): Promise<PasskeyDto[]> {
  const actor = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  return (await validPasskeysOf(db, ctx, actor.userId)).map(toPasskeyDto);
}
