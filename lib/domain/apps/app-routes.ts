import { getGlobalDb } from '../../db/global-db';
import { onUniqueViolation } from '../../db/errors';
import type { GlobalTx } from '../../db/types';
import { AppError, validationError } from '../../errors/app-error';
import { logError } from '../../log/logger';
import { isValidDomain } from '../../realm/host';
import { invalidateRealmCache } from '../../realm/realm-cache';

// The host-to-App routing of spec 2.1 (ApplicationDomains): `Settings.Origin.Subdomain` `s` of an
// App routes the host `s.<realm PrimaryDomain>` to it. The routes live in the global store
// (RealmAppDomain, beside the realm's Domains) because the realm is resolved from the Host before
// its database is known; the App's document in the realm database names the subdomain. A host is
// either one realm's domain or one App's route, never both (the realm PATCH checks the other way).
//
// The two stores cannot share a transaction, so the route is written first and put back when the
// realm-database write fails (`withAppRoute`): a failed request leaves both as they were.

export function appHost(subdomain: string, primaryDomain: string): string {
  return `${subdomain}.${primaryDomain}`;
}

const SUBDOMAIN_FIELD = 'Settings.Origin.Subdomain';

function taken(host: string): AppError {
  return new AppError('App.SubdomainTaken', {
    detail: `${host} is already the address of a realm or of another application.`,
    errors: { [SUBDOMAIN_FIELD]: [`${host} is already in use; choose another subdomain.`] },
  });
}

/** Whether `host` is some realm's domain or the route of another App than `appId` of `realmId`. */
async function hostInUse(tx: GlobalTx, host: string, realmId: string, appId: string): Promise<boolean> {
  if (await tx.realmDomain.findUnique({ where: { host }, select: { host: true } })) return true;
  const route = await tx.realmAppDomain.findUnique({ where: { host }, select: { realmId: true, appId: true } });
  return Boolean(route && (route.realmId !== realmId || route.appId !== appId));
}

/**
 * Makes the App's route what its document asks (one host, or none), under the realm's primary
 * domain as the global store has it now. Answers the hosts it had before (for `restoreAppRoutes`),
 * or null when nothing changed.
 */
export async function setAppRoute(realmId: string, appId: string, subdomain: string | null): Promise<string[] | null> {
  const db = await getGlobalDb();
  const changed = await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        const realm = await tx.realm.findUnique({ where: { id: realmId }, select: { primaryDomain: true } });
        if (!realm) throw new AppError('App.NotFound');
        const host = subdomain ? appHost(subdomain, realm.primaryDomain) : null;
        if (host && !isValidDomain(host)) {
          throw validationError({ [SUBDOMAIN_FIELD]: [`${host} is not a valid host name: this realm’s primary domain cannot carry subdomains.`] });
        }
        const before = (await tx.realmAppDomain.findMany({ where: { realmId, appId }, select: { host: true } })).map((r) => r.host);
        if (before.length === (host ? 1 : 0) && (!host || before[0] === host)) return null;
        if (host && (await hostInUse(tx, host, realmId, appId))) throw taken(host);
        await tx.realmAppDomain.deleteMany({ where: { realmId, appId } });
        if (host) await tx.realmAppDomain.create({ data: { host, realmId, appId } });
        return before;
      }),
    new AppError('App.SubdomainTaken', { errors: { [SUBDOMAIN_FIELD]: ['This address was taken a moment ago; choose another subdomain.'] } }),
  );
  if (changed) invalidateRealmCache();
  return changed;
}

/** Puts back the routes an App had before `setAppRoute` (the compensation of a failed write). */
export async function restoreAppRoutes(realmId: string, appId: string, hosts: readonly string[]): Promise<void> {
  try {
    const db = await getGlobalDb();
    await db.$transaction(async (tx) => {
      await tx.realmAppDomain.deleteMany({ where: { realmId, appId } });
      for (const host of hosts) {
        // A host someone else took in the meantime stays theirs: the App is left without it.
        if (!(await tx.realmAppDomain.findUnique({ where: { host }, select: { host: true } }))) {
          await tx.realmAppDomain.create({ data: { host, realmId, appId } });
        }
      }
    });
  } catch (e) {
    logError('could not restore the routes of an application after a failed change', e, { realmId, appId });
  } finally {
    invalidateRealmCache();
  }
}

/**
 * Runs the realm-database write `work` with the App's route set to `subdomain` (or removed):
 * the route first (its conflicts answer 409 before anything else is written), then `work`; when
 * `work` fails, the route is put back as it was and the failure passes on.
 */
export async function withAppRoute<T>(realmId: string, appId: string, subdomain: string | null, work: () => Promise<T>): Promise<T> {
  const before = await setAppRoute(realmId, appId, subdomain);
  try {
    return await work();
  } catch (e) {
    if (before) await restoreAppRoutes(realmId, appId, before);
    throw e;
  }
}

/** The realm PATCH refuses, as its domains, hosts that are App addresses (of any realm). */
export async function assertNotAppAddresses(tx: GlobalTx, hosts: readonly string[]): Promise<void> {
  const routes = await tx.realmAppDomain.findMany({ where: { host: { in: [...hosts] } }, select: { host: true } });
  if (routes.length) {
    const list = routes.map((r) => r.host);
    throw new AppError('Realm.DomainIsAppAddress', {
      detail: `Already the address of an application: ${list.join(', ')}.`,
      errors: { Domains: list.map((h) => `${h} is the address of an application (its Origin subdomain); change that application first.`) },
    });
  }
}

/**
 * A realm's primary domain changed: its Apps' addresses follow (`s.<old>` becomes `s.<new>`), in the
 * realm update's global transaction, so an App keeps its subdomain and its document stays true.
 * A new address that is already taken (a realm's domain, another App's route) refuses the whole
 * update with 409 Realm.AppAddressTaken.
 */
export async function moveAppRoutes(tx: GlobalTx, realmId: string, from: string, to: string): Promise<void> {
  const routes = await tx.realmAppDomain.findMany({ where: { realmId }, select: { host: true, appId: true } });
  const suffix = `.${from}`;
  const moved = routes.filter((r) => r.host.endsWith(suffix)).map((r) => ({ ...r, next: appHost(r.host.slice(0, -suffix.length), to) }));
  if (!moved.length) return;
  const clashes: string[] = [];
  for (const m of moved) {
    const other = await tx.realmAppDomain.findUnique({ where: { host: m.next }, select: { realmId: true } });
    if (
      !isValidDomain(m.next) ||
      (await tx.realmDomain.findUnique({ where: { host: m.next }, select: { host: true } })) ||
      (other && other.realmId !== realmId)
    ) {
      clashes.push(m.next);
    }
  }
  if (clashes.length) {
    throw new AppError('Realm.AppAddressTaken', {
      detail: `These application addresses under ${to} cannot be used: ${clashes.join(', ')}.`,
      errors: { PrimaryDomain: clashes.map((h) => `${h} is already in use (or not a valid host name); change that application’s subdomain first.`) },
    });
  }
  await tx.realmAppDomain.deleteMany({ where: { realmId, host: { in: moved.map((m) => m.host) } } });
  await tx.realmAppDomain.createMany({ data: moved.map((m) => ({ host: m.next, realmId, appId: m.appId })) });
}
