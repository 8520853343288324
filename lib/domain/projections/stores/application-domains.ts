import { getGlobalDb } from '../../../db/global-db';
import { invalidateRealmCache } from '../../../realm/realm-cache';
import type { RealmRecord } from '../../../realm/realm-record';
import { realmDb } from '../../../realm/context';
import type { DerivedStore } from '../../../runtime/derived-stores';
import { readStoredAppSettings } from '../../apps/app-settings';
import { planRoutes, routeDifferences, type RouteChange } from './application-routes';

// The realm's ApplicationDomains (spec 2.1): the global RealmAppDomain rows of this realm, derived
// from its Apps' stored Settings.Origin.Subdomain (host `<Subdomain>.<PrimaryDomain>`). Rebuild
// writes the rows the Apps ask for and removes the others, in one transaction of the global store,
// leaving alone any host another realm holds (reported, not taken).

async function plan(realm: RealmRecord) {
  const db = await realmDb(realm);
  const apps = await db.app.findMany({ select: { id: true, settings: true }, orderBy: { id: 'asc' } });
  const wanted = apps.map((a) => ({ appId: a.id, subdomain: readStoredAppSettings(a.settings).Origin?.Subdomain ?? null }));
  const global = await getGlobalDb();
  const current = await global.realmAppDomain.findMany({ where: { realmId: realm.id }, select: { host: true, appId: true } });
  const { routes, clashes } = planRoutes(wanted, realm.primaryDomain);
  const hosts = [...routes.keys()];
  // A host another realm already holds (as a domain or an App route) cannot route here.
  const foreign = new Set([
    ...(await global.realmDomain.findMany({ where: { host: { in: hosts }, realmId: { not: realm.id } }, select: { host: true } })).map((r) => r.host),
    ...(await global.realmAppDomain.findMany({ where: { host: { in: hosts }, realmId: { not: realm.id } }, select: { host: true } })).map((r) => r.host),
  ]);
  return { changes: routeDifferences(routes, new Map(current.map((r) => [r.host, r.appId])), foreign), clashes };
}

function problemOf(c: RouteChange): string {
  if (c.kind === 'missing') return `Host ${c.host} should route to application ${c.appId} but has no route.`;
  if (c.kind === 'extra') return `Host ${c.host} routes to application ${c.appId}, which does not ask for it.`;
  if (c.kind === 'wrong') return `Host ${c.host} routes to application ${c.appId} but application ${c.wantedAppId} asks for it.`;
  return `Host ${c.host}, asked for by application ${c.appId}, belongs to another realm and cannot route here.`;
}

function fixOf(c: RouteChange): string {
  if (c.kind === 'missing') return `Added the route ${c.host} to application ${c.appId}.`;
  if (c.kind === 'extra') return `Removed the route ${c.host} (application ${c.appId} does not ask for it).`;
  if (c.kind === 'wrong') return `Pointed ${c.host} at application ${c.wantedAppId} instead of ${c.appId}.`;
  return problemOf(c);
}

export const applicationDomainsStore: DerivedStore = {
  name: 'ApplicationDomains',
  async check(realm: RealmRecord) {
    const { changes, clashes } = await plan(realm);
    return [...clashes, ...changes.map(problemOf)];
  },
  async rebuild(realm: RealmRecord) {
    const { changes, clashes } = await plan(realm);
    const fixable = changes.filter((c) => c.kind !== 'foreign');
    if (fixable.length) {
      const global = await getGlobalDb();
      await global.$transaction(async (tx) => {
        for (const c of fixable) {
          if (c.kind === 'extra') await tx.realmAppDomain.deleteMany({ where: { host: c.host, realmId: realm.id } });
          else if (c.kind === 'wrong') await tx.realmAppDomain.updateMany({ where: { host: c.host, realmId: realm.id }, data: { appId: c.wantedAppId } });
          else await tx.realmAppDomain.create({ data: { host: c.host, realmId: realm.id, appId: c.appId } });
        }
        // The realm record carries the map: other instances without the relay notice the new revision.
        await tx.realm.update({ where: { id: realm.id }, data: { revision: { increment: 1 } } });
      });
      invalidateRealmCache();
    }
    return [...fixable.map(fixOf), ...changes.filter((c) => c.kind === 'foreign').map(fixOf), ...clashes];
  },
};
