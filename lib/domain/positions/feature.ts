import { notFound } from '../../errors/app-error';
import type { RealmRecord } from '../../realm/realm-record';
import { flag } from '../flags/registry';
import { RealmFeatures } from '../realm-settings/features';

// Positions and their terminals exist only while the realm's Features.PositionTerminals switch is on
// (spec 3.6, 7): until then their routes answer a bare 404, as if they were not there.

/** The access-token claim naming the position a terminal acts at (client_credentials tokens). */
export const POSITION_CLAIM = 'position_id';

export async function positionTerminalsEnabled(realm: RealmRecord): Promise<boolean> {
  return flag({ realm }, RealmFeatures.PositionTerminals);
}

/** The operations check it too, so a caller other than the route (a page, the CLI) meets the same rule. */
export async function assertPositionTerminalsEnabled(realm: RealmRecord): Promise<void> {
  if (!(await positionTerminalsEnabled(realm))) throw notFound();
}
