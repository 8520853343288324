import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../crypto/tokens';
import { getGlobalDb } from '../../../db/global-db';
import type { GlobalDb, RealmDb } from '../../../db/types';
import { realmCache } from '../../../realm/realm-cache';
import type { RealmRecord } from '../../../realm/realm-record';
import { getRealmRecordById } from '../../../realm/realm-store';
import { resolveHost } from '../../../realm/resolve';
import { tempRealmDb } from '../../../testing/temp-realm-db';
import { settingsForApp } from '../../apps/app-settings';
import { BUILT_IN_IDS } from '../../built-in-ids';
import { seedRealm } from '../../realms/seed-realm';
import { appSettingsStore } from './app-settings';
import { applicationDomainsStore } from './application-domains';
import { realmRecordStore } from './realm-record';

// The derived stores the HTTP suite cannot reach on its own schedule: the host -> realm cache (its
// entries live seconds in the test server) and the App settings cache (filled by App-aware flows),
// and a route another realm holds. Against a real realm database and global store.

let db: RealmDb;
let global: GlobalDb;
let dispose: () => Promise<void>;
let realm: RealmRecord;
const realmId = newId();
const HOST = 'stores.unit.test';

beforeAll(async () => {
  const temp = await tempRealmDb();
  ({ db, dispose } = temp);
  await db.$transaction((tx) => seedRealm(tx, { isControlPlane: false, displayName: 'Unit' }));
  global = await getGlobalDb();
  await global.realm.create({
    data: {
      id: realmId,
      slug: 'stores',
      displayName: 'Stores',
      primaryDomain: HOST,
      isProvisioned: true,
      databaseName: temp.name,
      domains: { create: [{ host: HOST }] },
    },
  });
  realm = (await getRealmRecordById(realmId))!;
});
afterAll(async () => dispose());

describe('RealmCache', () => {
  it('names a host whose cached record is out of date, and a host of the realm cached as unknown; rebuild drops both', async () => {
    expect((await resolveHost(HOST)).kind).toBe('realm');
    expect((await resolveHost('late.unit.test')).kind).toBe('unknown');
    await global.realm.update({ where: { id: realmId }, data: { displayName: 'Renamed' } });
    await global.realmDomain.create({ data: { host: 'late.unit.test', realmId } });
    expect(await realmRecordStore.check(realm)).toEqual([
      `Host ${HOST}: the cached realm record is out of date in: displayName, domains.`,
      'Host late.unit.test belongs to this realm but is cached as unknown.',
    ]);
    expect(await realmRecordStore.rebuild(realm)).toEqual(['Dropped the cached realm record of 1 host.', 'Forgot that 1 host of this realm were unknown.']);
    expect(realmCache().byHost.has(HOST)).toBe(false);
    expect(await realmRecordStore.check(realm)).toEqual([]);
    const resolved = await resolveHost('late.unit.test');
    expect(resolved.kind === 'realm' && resolved.realm.displayName).toBe('Renamed');
  });
});

describe('AppSettings', () => {
  it('names the sections of a cached App document that changed underneath; rebuild drops it', async () => {
    await settingsForApp(realm, BUILT_IN_IDS.mainApp);
    expect(await appSettingsStore.check(realm)).toEqual([]);
    await db.app.update({ where: { id: BUILT_IN_IDS.mainApp }, data: { settings: JSON.stringify({ Branding: { ProductName: 'Shop' } }) } });
    expect(await appSettingsStore.check(realm)).toEqual([`Application ${BUILT_IN_IDS.mainApp}: the cached settings are out of date in: Branding.`]);
    expect(await appSettingsStore.rebuild(realm)).toEqual(['Dropped the cached settings of 1 application.']);
    expect(await appSettingsStore.check(realm)).toEqual([]);
    expect((await settingsForApp(realm, BUILT_IN_IDS.mainApp)).Branding.ProductName).toBe('Shop');
  });
});

describe('ApplicationDomains', () => {
  it('leaves a host another realm holds alone and says so; routes the rest', async () => {
    const otherId = newId();
    await global.realm.create({
      data: { id: otherId, slug: 'other', displayName: 'Other', primaryDomain: 'other.test', isProvisioned: true, databaseName: 'other-db' },
    });
    await global.realmAppDomain.create({ data: { host: `taken.${HOST}`, realmId: otherId, appId: newId() } });
    const blog = newId();
    await db.app.create({ data: { id: blog, slug: 'blog', displayName: 'Blog', settings: JSON.stringify({ Origin: { Subdomain: 'blog' } }) } });
    await db.app.update({ where: { id: BUILT_IN_IDS.mainApp }, data: { settings: JSON.stringify({ Origin: { Subdomain: 'taken' } }) } });

    expect(await applicationDomainsStore.check(realm)).toEqual([
      `Host blog.${HOST} should route to application ${blog} but has no route.`,
      `Host taken.${HOST}, asked for by application ${BUILT_IN_IDS.mainApp}, belongs to another realm and cannot route here.`,
    ]);
    const before = (await global.realm.findUnique({ where: { id: realmId } }))!.revision;
    expect(await applicationDomainsStore.rebuild(realm)).toEqual([
      `Added the route blog.${HOST} to application ${blog}.`,
      `Host taken.${HOST}, asked for by application ${BUILT_IN_IDS.mainApp}, belongs to another realm and cannot route here.`,
    ]);
    expect(await global.realmAppDomain.findMany({ orderBy: { host: 'asc' }, select: { host: true, realmId: true } })).toEqual([
      { host: `blog.${HOST}`, realmId },
      { host: `taken.${HOST}`, realmId: otherId },
    ]);
    // The realm record carries the map: its revision moves so other instances notice.
    expect((await global.realm.findUnique({ where: { id: realmId } }))!.revision).toBe(before + 1);
    expect((await getRealmRecordById(realmId))!.applicationDomains).toEqual({ [`blog.${HOST}`]: blog });
  });
});
