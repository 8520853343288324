import { decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE, oauthRealm, rp, verifyJwt } from '../oauth/fixtures';
import { runCli } from '../support/cli';
import { CP_HOST, eventually, suite, uniqueSlug } from '../support/harness';
import { createClient, fetchJwks } from '../support/oauth';
import { globalSql, realmSql } from '../support/realm-sql';

// `npx gatehouse keys rotate [--realm SLUG]`, run beside the server: new RS256 and ES256 keys, the
// old ones retired but still published for the overlap. The running server rebuilds the realm's
// engine at once when the CLI's event reaches it through Redis; without Redis, when its cached realm
// record (GATEHOUSE_REALM_CACHE_SECONDS old at most: 3 s in the suite) shows the new revision.

type KeyRow = { id: string; alg: string; retiredAt: unknown; expiresAt: unknown };
type Printed = { added: { kid: string; alg: string }[]; retired: string[] };

function printed(stdout: string): Printed {
  return {
    added: [...stdout.matchAll(/^new (\S+) (RS256|ES256)$/gm)].map((m) => ({ kid: m[1], alg: m[2] })),
    retired: [...stdout.matchAll(/^retired (\S+) published until (\S+)$/gm)].map((m) => m[1]),
  };
}

const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid;
const revisionOf = async (slug: string) =>
  Number((await globalSql<{ revision: number }>('SELECT "revision" FROM "Realm" WHERE "slug" = $1', [slug]))[0].revision);

describe('gatehouse keys rotate', () => {
  // How long the running server may take to sign with the new keys (see the comment above).
  const PICK_UP_MS = 15_000;

  it('--realm: the old keys stay published, the new ones appear and sign new tokens', async () => {
    const { host, slug, admin } = await oauthRealm();
    const client = await createClient(host, admin.jar, {
      DisplayName: 'Backend job',
      ClientType: 'Confidential',
      GrantTypes: ['client_credentials'],
      Scopes: [MANAGEMENT_SCOPE],
    });
    const config = await rp(host, client.ClientId, client.ClientSecret);
    const grant = () => oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE, resource: MANAGEMENT_AUDIENCE });
    const before = await grant();
    const oldKids = (await fetchJwks(host)).keys.map((k) => k.kid);
    expect(oldKids).toHaveLength(2);
    expect(oldKids).toContain(kidOf(before.access_token));
    const revision = await revisionOf(slug);

    const r = await runCli(suite().env, ['keys', 'rotate', '--realm', slug]);
    expect(r.code, r.stderr).toBe(0);
    const out = printed(r.stdout);
    expect(out.added.map((k) => k.alg).sort(), r.stdout).toEqual(['ES256', 'RS256']);
    const newKids = out.added.map((k) => k.kid);
    expect(newKids.filter((kid) => oldKids.includes(kid))).toEqual([]);
    expect([...out.retired].sort()).toEqual([...oldKids].sort());

    // Stored: the new keys active, the old ones retired with an expiry about 30 days out.
    const rows = await realmSql<KeyRow>(slug, 'SELECT "id", "alg", "retiredAt", "expiresAt" FROM "SigningKey"');
    expect(
      rows
        .filter((k) => k.retiredAt === null)
        .map((k) => k.id)
        .sort(),
    ).toEqual([...newKids].sort());
    for (const kid of oldKids) {
      const row = rows.find((k) => k.id === kid)!;
      expect(row.retiredAt).not.toBeNull();
      const days = (new Date(row.expiresAt as string | Date).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29);
      expect(days).toBeLessThan(31);
    }
    // The revision other instances compare, and the event in the realm's security log.
    expect(await revisionOf(slug)).toBe(revision + 1);
    const logged = await realmSql<{ detail: string }>(slug, 'SELECT "detail" FROM "AuthLogEvent" WHERE "eventType" = $1', ['signing-key.rotated']);
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0].detail)).toEqual({ keyIds: newKids, retiredKeyIds: out.retired });

    // Served: all four keys published, and new tokens signed with a new key.
    await eventually(async () => {
      const kids = (await fetchJwks(host)).keys.map((k) => k.kid);
      expect(kids.sort()).toEqual([...oldKids, ...newKids].sort());
    }, PICK_UP_MS);
    const after = await grant();
    expect(newKids).toContain(kidOf(after.access_token));
    expect(decodeProtectedHeader(after.access_token).alg).toBe('ES256');
    // The token from before still verifies: its key is still in the JWKS.
    await expect(verifyJwt(host, before.access_token, MANAGEMENT_AUDIENCE)).resolves.toBeTruthy();
    await expect(verifyJwt(host, after.access_token, MANAGEMENT_AUDIENCE)).resolves.toBeTruthy();
  }, 150_000);

  it('without --realm rotates the control plane', async () => {
    const r = await runCli(suite().env, ['keys', 'rotate']);
    expect(r.code, r.stderr).toBe(0);
    const out = printed(r.stdout);
    expect(out.added).toHaveLength(2);
    expect(r.stdout).toMatch(/^signing keys of realm control rotated$/m);
    const active = await realmSql<{ id: string }>('control', 'SELECT "id" FROM "SigningKey" WHERE "retiredAt" IS NULL');
    expect(active.map((k) => k.id).sort()).toEqual(out.added.map((k) => k.kid).sort());
    // The retired keys are still published (the server's engine may not have been rebuilt yet).
    const published = (await fetchJwks(CP_HOST)).keys.map((k) => k.kid);
    for (const kid of out.retired) expect(published).toContain(kid);
  });

  it('fails with a non-zero exit for an unknown realm, a missing value or a stray argument', async () => {
    for (const args of [['--realm', uniqueSlug('none')], ['--realm'], ['now'], ['--force']]) {
      const r = await runCli(suite().env, ['keys', 'rotate', ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).not.toBe(0);
      expect(r.stdout).not.toMatch(/^new /m);
      expect(r.stderr.length).toBeGreaterThan(0);
    }
  });
});
