import { REALM_ADMIN } from '../../authz/catalog';
import { requirePermission } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../../realm/context';
import { getRealmRecordById } from '../../realm/realm-store';
import type { Manifest } from './schema';
import { readRealmState } from './state';

// GET .../export (spec 4.8): the realm's structure as a manifest, structure only (no users, secrets
// or ids), every list sorted by natural key, so two exports of the same structure are byte-equal and
// a diff between two realms' exports shows only real differences. Built-ins are left out: every realm
// has them, and a manifest refers to them by name.
export async function exportManifest(ctx: DomainContext): Promise<Manifest> {
  await requirePermission(ctx, REALM_ADMIN);
  // The realm record afresh: its DisplayName may have changed since the request's cached copy.
  const realm = (await getRealmRecordById(ctx.realm.id)) ?? ctx.realm;
  const db = await realmDb(ctx.realm);
  // One transaction: a consistent snapshot across the reads.
  const state = await db.$transaction((tx) => readRealmState(tx, realm));
  return state.manifest;
}
