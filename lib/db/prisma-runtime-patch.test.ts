import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import { PrismaClient as RealmSqliteClient } from './generated/realm-sqlite/client';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';

// scripts/prisma-runtime-patch.mjs (run after install): Prisma's runtime decodes a schema's
// parameterization graph once per schema instead of once per client (a realm client per realm).

const MARKER = '__gatehouseDecodedParameterization';
const scriptUrl = new URL('../../scripts/prisma-runtime-patch.mjs', import.meta.url).href;
type PatchModule = { patchedSource(source: string): string | null };

describe('Prisma runtime patch', () => {
  it('is applied to the runtime Node loads', () => {
    const runtime = createRequire(import.meta.url).resolve('@prisma/client/runtime/client');
    expect(readFileSync(runtime, 'utf8').includes(MARKER), `${runtime} is patched (npm run postinstall)`).toBe(true);
  });

  it('decodes the graph on the first client and hands later clients the same data', async () => {
    const newClient = () => new RealmSqliteClient({ adapter: new PrismaBetterSqlite3({ url: 'file::memory:' }) });
    newClient();
    const decoded = (globalThis as Record<string, unknown>)[MARKER];
    expect(decoded).toBeInstanceOf(WeakMap);
    // Decoding is the only thing that reads the graph (base64url): a second client must not read it.
    const from = vi.spyOn(Buffer, 'from');
    try {
      newClient();
      expect(from.mock.calls.filter((args: unknown[]) => args[1] === 'base64url')).toHaveLength(0);
    } finally {
      from.mockRestore();
    }
  });

  it('rewrites the decoder whatever the minifier named it, and only that', async () => {
    const { patchedSource } = (await import(scriptUrl)) as PatchModule;
    const source = 'x;var q=class e{static deserialize(a,b){let c=Zz(a);return new e(c,b)}static fromData(a,b){return new e(a,b)}};y';
    const out = patchedSource(source)!;
    expect(out).toContain(MARKER);
    expect(out.startsWith('x;var q=class e{static deserialize(a,b){')).toBe(true);
    expect(out.endsWith('return new e(c,b)}static fromData(a,b){return new e(a,b)}};y')).toBe(true);
    // The decoder as patched runs: a graph is decoded once per graph object.
    let decodes = 0;
    const Zz = (g: object) => ({ decoded: g, n: ++decodes });
    const q = new Function('Zz', `${out.slice(2, -2)};return q`)(Zz) as { deserialize(g: object, enums: unknown): unknown };
    const g1 = {};
    const g2 = {};
    q.deserialize(g1, null);
    q.deserialize(g1, null);
    q.deserialize(g2, null);
    expect(decodes).toBe(2);
    expect(patchedSource('no decoder here')).toBeNull();
  });
});
