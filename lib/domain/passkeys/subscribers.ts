import { subscribe, publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import type { DomainEvent } from '../../events/types';
import { getRealmRecordById } from '../../realm/realm-store';
import { shared } from '../../runtime/shared';
import { domainContext, realmDb } from '../../realm/context';

// Spec 2.1: PrimaryDomain is the WebAuthn RP ID, so changing it invalidates every passkey of the
// realm. On `realm.primary-domain-changed` (subject: the realm whose domain changed) every passkey
// registered up to the change is deleted, and any left with another RP ID than the current one.
// Passkeys made for the new domain after the change are kept.
async function removeInvalidatedPasskeys(event: DomainEvent): Promise<number> {
  const realmId = event.subjectId ?? event.realmId;
  const realm = await getRealmRecordById(realmId);
  if (!realm) return 0;
  const db = await realmDb(realm);
  const r = await db.passkey.deleteMany({ where: { OR: [{ createdAt: { lte: event.at } }, { rpId: { not: realm.primaryDomain } }] } });
  const ctx = domainContext(realm, { kind: 'system', reason: 'primary-domain-changed' });
  await publish(eventFrom(ctx, 'auth.passkeys-invalidated', realm.id, { count: r.count, rpId: realm.primaryDomain }));
  return r.count;
}

/** Registers the passkey subscribers once per process (lib/startup/start-up.ts). */
export function registerPasskeySubscribers(): void {
  shared('passkey-subscribers', () =>
    subscribe(async (event) => {
      if (event.type === 'realm.primary-domain-changed') await removeInvalidatedPasskeys(event);
    }),
  );
}
