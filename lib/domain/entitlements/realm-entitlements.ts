import { z } from 'zod';
import { defineFlagClass, plain } from '../flags/registry';

// The entitlement class `RealmEntitlements` (CONTRACT.md "Real-time hub and flags", docs/flags.md):
// the limits the control plane set on a realm, a number or null for unlimited. They travel on the
// cached realm record, so reading one costs no query; a change drops that record on every instance.
const limit = z.number().int().min(0).nullable();

export const RealmEntitlements = defineFlagClass('RealmEntitlements', {
  MaxUsers: plain(limit, (ctx) => ctx.realm.entitlements.MaxUsers),
  MaxOAuthClients: plain(limit, (ctx) => ctx.realm.entitlements.MaxOAuthClients),
});
