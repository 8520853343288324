import type { RealmTx } from '../../db/types';
import { validationError } from '../../errors/app-error';
import { unknownAudiences } from '../oauth-apis/repo';

// A scope's Resources name APIs by audience (spec 4.7 "OAuth scopes"); each must exist, or the
// engine would issue tokens for an audience nobody serves. 400 naming the unknown ones.
export async function assertResourcesExist(tx: RealmTx, resources: readonly string[]): Promise<void> {
  const unknown = await unknownAudiences(tx, resources);
  if (unknown.length) {
    throw validationError({ Resources: [`No API has these audiences: ${unknown.join(', ')}. Create them under /api/admin/oauth/apis first.`] });
  }
}
