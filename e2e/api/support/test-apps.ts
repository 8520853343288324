import { randomBytes } from 'node:crypto';
import { api, hostHeader, type SignedIn } from './harness';

// A second App in a test realm, with its `Settings` and a host routed to it, made through the App
// API (spec 4.7 "Applications": `Origin.Subdomain` routes `<subdomain>.<PrimaryDomain>` to the App).
// `admin` is the realm's administrator (realm:admin: the sections that open the realm need it).

export type TestApp = { id: string; slug: string; domain: string; host: string };

/** The built-in App every realm is seeded with (lib/domain/built-in-ids.ts). */
export const MAIN_APP_ID = '00000000-0000-4000-8000-000000000001';

export async function createTestApp(realm: { domain: string }, admin: SignedIn, settings: Record<string, unknown> | null = null): Promise<TestApp> {
  const slug = `app-${randomBytes(4).toString('hex')}`;
  const res = await api(admin.host, 'POST', '/api/app', {
    cookie: admin.jar,
    body: { Slug: slug, DisplayName: `App ${slug}`, PermissionCatalog: [], Settings: { ...(settings ?? {}), Origin: { Subdomain: slug } } },
  });
  if (res.status !== 201) throw new Error(`creating App ${slug} answered ${res.status}: ${res.text}`);
  const domain = `${slug}.${realm.domain}`;
  return { id: res.body.Id as string, slug, domain, host: hostHeader(domain) };
}
