import { settings } from '../../config/env';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { getGlobalDb } from '../../db/global-db';
import { createRealmDatabase, dropRealmDatabase, realmDatabaseName } from '../../db/realm-databases';
import { getRealmDb } from '../../db/realm-pool';
import { AppError } from '../../errors/app-error';
import { eventFrom } from '../../events/event-from';
import { publish } from '../../events/bus';
import { logError } from '../../log/logger';
import { invalidateRealmCache } from '../../realm/realm-cache';
import { getRealmRecordById } from '../../realm/realm-store';
import type { RealmRecord } from '../../realm/realm-record';
import { issueAdminInviteTx } from '../invites/admin-invite';
import type { DomainContext } from '../../realm/context';
import { requirePermission } from '../../authz/require-permission';
import { assertNotAppAddresses } from '../apps/app-routes';
import { checkDomains } from './domains';
import type { AdminInviteDto } from '../invites/schemas';
import type { CreateRealmInput } from './schemas';
import { seedRealm } from './seed-realm';
import { newSigningKeyRows } from '../signing-keys/signing-keys';
import { slugProblem } from './slug';

// Realm creation, the nine steps of spec 4.8, all or nothing. The slug is reserved first by an
// unprovisioned global record (its unique index makes concurrent creates of one slug race to exactly
// one winner); the tenant database is created, migrated and seeded; the record is then marked
// provisioned. Any failure drops the database and deletes the reservation.

export type CreatedRealm = { realm: RealmRecord; invite?: AdminInviteDto };

/** Spec 4.8 create, as the control plane's administrators call it. */
export async function createRealm(ctx: DomainContext, input: CreateRealmInput): Promise<CreatedRealm> {
  await requirePermission(ctx, 'realm:write', 'control-plane');
  const created = await provisionRealm(input);
  await publish(eventFrom(ctx, 'realm.created', created.realm.id, { slug: created.realm.slug, initialAdmin: Boolean(input.InitialAdmin) }));
  return created;
}

/** The nine steps, without authorization: also used to create the control plane on first start. */
export async function provisionRealm(input: CreateRealmInput, options: { isControlPlane?: boolean } = {}): Promise<CreatedRealm> {
  // Step 1: validate the slug and the domains.
  const problem = slugProblem(input.Slug);
  if (problem) {
    throw new AppError(problem === 'reserved' ? 'Realm.SlugReserved' : 'Realm.SlugInvalid', {
      errors: { Slug: [problem === 'reserved' ? 'This slug is reserved.' : 'Use 3-63 lower-case letters, digits and hyphens, starting with a letter.'] },
    });
  }
  const domains = checkDomains(input.Domains);
  const global = await getGlobalDb();
  // A host is a realm's domain or an App's address, never both (apps/app-routes.ts).
  await assertNotAppAddresses(global, domains);
  const id = newId();
  const databaseName = realmDatabaseName(id);
  const failAt = settings().testFailRealmCreateAt;
  const step = (n: number) => {
    if (failAt === n) throw new Error(`injected failure after realm creation step ${n}`);
  };

  await onUniqueViolation(
    () =>
      global.realm.create({
        data: {
          id,
          slug: input.Slug,
          displayName: input.DisplayName,
          description: input.Description || null,
          primaryDomain: domains[0],
          isControlPlane: options.isControlPlane ?? false,
          isActive: true,
          isProvisioned: false,
          databaseName,
          domains: { create: domains.map((host) => ({ host })) },
        },
      }),
    'Realm.DomainTaken',
    { slug: 'Realm.SlugTaken' },
  );
  let databaseCreated = false;
  let invite: AdminInviteDto | undefined;
  try {
    step(1);
    // The realm's signing keys (issue 4) are generated off the event loop while its database is made.
    const keyRows = newSigningKeyRows();
    keyRows.catch(() => undefined);
    // Steps 2-4: create the tenant database, register it, apply the schema.
    await createRealmDatabase(databaseName);
    databaseCreated = true;
    step(2);
    step(3);
    step(4);
    // Steps 5, 6 and 9 in one realm transaction: scopes, the Internal provider, applications, the
    // Administrators group, and the initial admin invite when asked for.
    const db = await getRealmDb(databaseName);
    invite = await db.$transaction(async (tx) => {
      await seedRealm(tx, { isControlPlane: options.isControlPlane ?? false, displayName: input.DisplayName });
      await tx.signingKey.createMany({ data: await keyRows });
      step(5);
      step(6);
      if (!input.InitialAdmin) return undefined;
      const { id: _inviteId, ...dto } = await issueAdminInviteTx(tx, { primaryDomain: domains[0] }, input.InitialAdmin);
      return dto;
    });
    // Step 7: the realm becomes visible.
    await global.realm.update({ where: { id }, data: { isProvisioned: true } });
    step(7);
  } catch (e) {
    await undoCreate(id, databaseName, databaseCreated);
    throw e;
  }
  // Step 8.
  invalidateRealmCache();
  const realm = await getRealmRecordById(id);
  if (!realm) throw new AppError('Realm.CreateFailed');
  return { realm, invite };
}

async function undoCreate(id: string, databaseName: string, databaseCreated: boolean): Promise<void> {
  try {
    if (databaseCreated) await dropRealmDatabase(databaseName);
  } catch (e) {
    logError('could not drop the database of a failed realm creation', e, { databaseName });
  }
  try {
    const global = await getGlobalDb();
    await global.realm.deleteMany({ where: { id } });
  } catch (e) {
    logError('could not remove the reservation of a failed realm creation', e, { realmId: id });
  }
  invalidateRealmCache();
}
