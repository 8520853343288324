import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

// The realm-manifest measurement (scenario-manifest.ts starts it in a process of its own, on SQLite):
// a freshly seeded realm, a manifest of `apps` Apps (10 permissions each), `roles` roles, `groups`
// groups (each holding a role, most nested in another) and `clients` OAuth clients; timed with the
// product's own operations: plan (a dry run) and apply into the empty realm, plan and apply again
// into the realm that now matches (a no-op), and export. Prints one JSON line.

type Sizes = { apps: number; roles: number; groups: number; clients: number };

function manifestOf(s: Sizes): Record<string, unknown> {
  const apps = Array.from({ length: s.apps }, (_, i) => ({
    Slug: `app-${i}`,
    DisplayName: `App ${i}`,
    PermissionCatalog: Array.from({ length: 10 }, (_, p) => ({ Name: `res${p}:read`, Description: `Read resource ${p}` })),
  }));
  const roles = Array.from({ length: s.roles }, (_, i) => ({
    App: `app-${i % s.apps}`,
    Name: `Role ${i}`,
    Permissions: [`res${i % 10}:read`, `res${(i + 1) % 10}:read`],
  }));
  const groups = Array.from({ length: s.groups }, (_, i) => ({
    Name: `Group ${i}`,
    BoundTo: i % 3 === 0 ? ['*'] : [`app-${i % s.apps}`],
    Roles: [{ App: roles[i % s.roles].App, Name: roles[i % s.roles].Name }],
    // A forest ten deep at most: each group under one made before it.
    ParentGroups: i >= 10 ? [`Group ${Math.floor(i / 10)}`] : [],
  }));
  const clients = Array.from({ length: s.clients }, (_, i) =>
    i % 2
      ? { ClientId: `svc-${i}`, DisplayName: `Service ${i}`, ClientType: 'Confidential', GrantTypes: ['client_credentials'], App: `app-${i % s.apps}` }
      : {
          ClientId: `web-${i}`,
          DisplayName: `Web ${i}`,
          ClientType: 'Public',
          GrantTypes: ['authorization_code', 'refresh_token'],
          RedirectUris: [`https://web-${i}.example.test/callback`],
          Scopes: ['openid', 'profile', 'offline_access'],
          App: `app-${i % s.apps}`,
        },
  );
  return { Version: 1, Realm: { DisplayName: 'Unit Realm' }, Apps: apps, Roles: roles, Groups: groups, OAuthClients: clients };
}

async function main(): Promise<void> {
  const [apps, roles, groups, clients] = process.argv.slice(2).map(Number);
  const dir = mkdtempSync(join(tmpdir(), 'gh-bench-manifest-'));
  process.env.GATEHOUSE_DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  try {
    const { createRealmDatabase, realmDatabaseName } = await import('../lib/db/realm-databases');
    const { getRealmDb, closeAllRealmDbs } = await import('../lib/db/realm-pool');
    const { closeGlobalDb } = await import('../lib/db/global-db');
    const { seedRealm } = await import('../lib/domain/realms/seed-realm');
    const { unitRealm } = await import('../lib/testing/unit-realm');
    const { domainContext } = await import('../lib/realm/context');
    const { applyManifest } = await import('../lib/domain/manifests/apply');
    const { exportManifest } = await import('../lib/domain/manifests/export');
    const name = realmDatabaseName(randomUUID());
    await createRealmDatabase(name);
    const db = await getRealmDb(name);
    await db.$transaction((tx) => seedRealm(tx, { isControlPlane: false, displayName: 'Unit Realm' }));
    const ctx = domainContext(unitRealm(name), { kind: 'system', reason: 'bench' });
    const manifest = manifestOf({ apps, roles, groups, clients });
    const timed = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
      const started = performance.now();
      const result = await work();
      return [performance.now() - started, result];
    };
    // Warm-up: code paths, the query engine and the global store, out of the figures.
    await exportManifest(ctx);
    await applyManifest(ctx, { Version: 1, Realm: { DisplayName: 'Unit Realm' } }, { prune: false, dryRun: true });

    const [planEmptyMs, planEmpty] = await timed(() => applyManifest(ctx, manifest, { prune: true, dryRun: true }));
    const [applyEmptyMs, applied] = await timed(() => applyManifest(ctx, manifest, { prune: true, dryRun: false }));
    const [planMatchMs] = await timed(() => applyManifest(ctx, manifest, { prune: true, dryRun: true }));
    const [applyMatchMs, noop] = await timed(() => applyManifest(ctx, manifest, { prune: true, dryRun: false }));
    const [exportMs, exported] = await timed(() => exportManifest(ctx));
    if (noop.Created.length + noop.Updated.length + noop.Deleted.length) throw new Error('the second apply was not a no-op');
    await closeAllRealmDbs();
    await closeGlobalDb();
    process.stdout.write(
      `${JSON.stringify({
        items: planEmpty.Created.length,
        created: applied.Created.length,
        secrets: applied.ClientSecrets?.length ?? 0,
        unchanged: noop.Unchanged,
        exportBytes: JSON.stringify(exported).length,
        planEmptyMs,
        applyEmptyMs,
        planMatchMs,
        applyMatchMs,
        exportMs,
      })}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
