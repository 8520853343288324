import { randomBytes, randomUUID } from 'node:crypto';
import { adminCookie, api, CP_HOST, hostHeader } from './harness';
import { globalSql, realmSql } from './realm-sql';

// A second App in a test realm, with its `Settings` and a host routed to it (spec 4.7 "Applications":
// `Origin.Subdomain` routes `<subdomain>.<PrimaryDomain>` to the App). Written straight into the
// databases until tests switch to the App API (POST /api/app); this is the one place to change then.
// A new App each time: the server caches an App's settings for a minute, so a test that needs other
// settings makes another App rather than editing this one behind the server's back.

export type TestApp = { id: string; slug: string; domain: string; host: string };

/** The built-in App every realm is seeded with (lib/domain/built-in-ids.ts). */
export const MAIN_APP_ID = '00000000-0000-4000-8000-000000000001';

export async function createTestApp(realm: { slug: string; domain: string }, settings: Record<string, unknown> | null = null): Promise<TestApp> {
  const id = randomUUID();
  const slug = `app-${randomBytes(4).toString('hex')}`;
  // createdAt copied from the built-in App: the column's type differs between the two engines.
  await realmSql(
    realm.slug,
    'INSERT INTO "App" ("id", "slug", "displayName", "settings", "createdAt") SELECT $1, $2, $3, $4, "createdAt" FROM "App" WHERE "id" = $5',
    [id, slug, `App ${slug}`, settings === null ? null : JSON.stringify(settings), MAIN_APP_ID],
  );
  const domain = `${slug}.${realm.domain}`;
  const [row] = await globalSql<{ id: string }>('SELECT "id" FROM "Realm" WHERE "slug" = $1', [realm.slug]);
  await globalSql('INSERT INTO "RealmAppDomain" ("host", "realmId", "appId") VALUES ($1, $2, $3)', [domain, row.id, id]);
  // The realm PATCH adds the host to the realm and refreshes its cached record, which carries the routing map.
  const current = await api(CP_HOST, 'GET', `/api/admin/realms/${realm.slug}`, { cookie: adminCookie() });
  if (current.status !== 200) throw new Error(`reading realm ${realm.slug} answered ${current.status}: ${current.text}`);
  const patched = await api(CP_HOST, 'PATCH', `/api/admin/realms/${realm.slug}`, {
    cookie: adminCookie(),
    body: { Domains: [...(current.body.Domains as string[]), domain] },
  });
  if (patched.status !== 200 || patched.body.ApplicationDomains?.[domain] !== id) {
    throw new Error(`routing ${domain} to the App answered ${patched.status}: ${patched.text}`);
  }
  return { id, slug, domain, host: hostHeader(domain) };
}
