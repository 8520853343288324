import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastLine, runCli } from '../support/cli';
import { createRealm, suite } from '../support/harness';
import { freePort, repoRoot, serverArgs, serverEnv } from '../support/server-process';
import { createStorage, destroyStorage } from '../support/storage';
import type { Storage } from '../support/types';

// Secrets at rest (issue 8 item 5): in production the encryption key must come from outside the
// data (GATEHOUSE_SECRET_KEY or GATEHOUSE_SECRET_KEY_FILE), with a clear start-up error otherwise; a
// deployment whose key still sits in the global store is told how to export it; the SQLite store is
// readable by Gatehouse's user only.

/** Starts the server (the suite's build or source) in production mode and waits for it to exit during start-up; its output. */
function failedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, serverArgs(suite().mode), {
      cwd: repoRoot,
      env: { ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not stop at start-up:\n${output}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function withoutKey(env: Record<string, string>): Record<string, string> {
  const { GATEHOUSE_SECRET_KEY: _, ...rest } = env;
  return rest;
}

async function envOf(storage: Storage): Promise<Record<string, string>> {
  return serverEnv(await freePort(), storage, suite().redisUrl);
}

describe('the encryption key in production', () => {
  it('a server without GATEHOUSE_SECRET_KEY refuses to start and says what to set', async () => {
    const { code, output } = await failedStart(withoutKey(await envOf(suite().storage)));
    expect(code).not.toBe(0);
    expect(output).toMatch(/GATEHOUSE_SECRET_KEY \(32 random bytes, base64/);
    expect(output).toMatch(/GATEHOUSE_SECRET_KEY_FILE/);
  });

  it('a key that is not 32 bytes, or an unreadable key file, is refused', async () => {
    const env = withoutKey(await envOf(suite().storage));
    expect((await failedStart({ ...env, GATEHOUSE_SECRET_KEY: 'c2hvcnQ=' })).output).toMatch(/must hold 32 bytes/);
    expect((await failedStart({ ...env, GATEHOUSE_SECRET_KEY_FILE: join(suite().runDir, 'no-such-key') })).output).toMatch(
      /GATEHOUSE_SECRET_KEY_FILE .* cannot be read/,
    );
  });

  it('a deployment whose key is in the global store is told to export it, and the export moves it out', async () => {
    const storage = await createStorage(suite().storage.engine, suite().runDir, 'stored-key');
    try {
      const env = withoutKey(await envOf(storage));
      // An older version (or a development setup) generated the key into the store.
      const seeded = await runCli(env, ['recover', 'bootstrap-admin', '--email', 'old@example.test']);
      expect(seeded.code, seeded.stderr).toBe(0);

      const refused = await failedStart(env);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toMatch(/keys export-secret/);

      const exported = await runCli({ ...env, NODE_ENV: 'production' }, ['keys', 'export-secret']);
      expect(exported.code, exported.stderr).toBe(0);
      const key = lastLine(exported.stdout);
      expect(Buffer.from(key, 'base64')).toHaveLength(32);

      // Another key would leave the sealed secrets unreadable: refused.
      const other = Buffer.alloc(32, 7).toString('base64');
      const wrong = await runCli({ ...env, NODE_ENV: 'production', GATEHOUSE_SECRET_KEY: other }, ['keys', 'rotate']);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toMatch(/differs from GATEHOUSE_SECRET_KEY/);

      // The exported key opens the sealed signing keys (rotation reads them) and the stored copy goes.
      const rotated = await runCli({ ...env, NODE_ENV: 'production', GATEHOUSE_SECRET_KEY: key }, ['keys', 'rotate']);
      expect(rotated.code, rotated.stderr).toBe(0);
      const again = await runCli({ ...env, NODE_ENV: 'production' }, ['keys', 'export-secret']);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/keeps no encryption key/);
    } finally {
      await destroyStorage(storage);
    }
  });
});

describe('file modes of the SQLite store', () => {
  it.skipIf(suite().storage.engine !== 'sqlite')('the data directory is 0700 and every database file 0600', async () => {
    await createRealm(); // a realm database of this run, with its -wal/-shm
    const dir = suite().storage.dataDir;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = [
      ...readdirSync(dir)
        .filter((f) => f.startsWith('global.db'))
        .map((f) => join(dir, f)),
      ...readdirSync(join(dir, 'realms')).map((f) => join(dir, 'realms', f)),
    ];
    expect(files.some((f) => f.endsWith('.db-wal'))).toBe(true);
    for (const f of files) expect(statSync(f).mode & 0o777, f).toBe(0o600);
    expect(statSync(join(dir, 'realms')).mode & 0o777).toBe(0o700);
  });
});
