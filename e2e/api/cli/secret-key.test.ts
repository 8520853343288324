import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastLine, runCli } from '../support/cli';
import { createRealm, suite } from '../support/harness';
import { freePort, serverArgs, serverEnv, startServer } from '../support/server-process';
import { createStorage, destroyStorage, putStoredPlatformKey } from '../support/storage';
import type { Storage } from '../support/types';

// Secrets at rest (issue 8 item 5): in production the encryption key must come from outside the
// data (GATEHOUSE_SECRET_KEY or GATEHOUSE_SECRET_KEY_FILE), with a clear start-up error otherwise; a
// deployment whose key still sits in the global store is told how to export it; the SQLite store is
// readable by Gatehouse's user only. Issue 30 item 3: the CLI never creates a key, and both find
// ./gatehouse.key in their working directory when no variable names the key.

/** A new empty directory to run in: no ./gatehouse.key there unless a test writes one. */
function workDir(label: string): string {
  mkdirSync(join(suite().runDir, 'cwd'), { recursive: true });
  return mkdtempSync(join(suite().runDir, 'cwd', `${label}-`));
}

/**
 * Starts the server (the suite's build or source) in production mode in `cwd` (an empty directory
 * unless given) and waits for it to exit during start-up; its output. Start-up checks the key before
 * anything else needs the checkout as its working directory.
 */
function failedStart(env: Record<string, string>, cwd = workDir('server')): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, serverArgs(suite().mode), {
      cwd,
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

/** Tests that run the CLI several times (each run starts it up, a few seconds on a busy machine). */
const CLI_RUNS_TIMEOUT = 300_000;

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

  it('a deployment whose key is in the global store is told to export it, and the export moves it out', { timeout: CLI_RUNS_TIMEOUT }, async () => {
    const storage = await createStorage(suite().storage.engine, suite().runDir, 'stored-key');
    try {
      const env = withoutKey(await envOf(storage));
      // An older version (or a development server) generated the key into the store and sealed with it.
      expect((await runCli(env, ['migrate'], undefined, workDir('cli'))).code).toBe(0);
      await putStoredPlatformKey(storage, Buffer.alloc(32, 3).toString('base64'));
      const seeded = await runCli(env, ['recover', 'bootstrap-admin', '--email', 'old@example.test'], undefined, workDir('cli'));
      expect(seeded.code, seeded.stderr).toBe(0);

      const refused = await failedStart(env);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toMatch(/keys export-secret/);

      const exported = await runCli({ ...env, NODE_ENV: 'production' }, ['keys', 'export-secret'], undefined, workDir('cli'));
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
      const again = await runCli({ ...env, NODE_ENV: 'production' }, ['keys', 'export-secret'], undefined, workDir('cli'));
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/keeps no encryption key/);
    } finally {
      await destroyStorage(storage);
    }
  });
});

describe('the CLI never creates the key (issue 30 item 3)', () => {
  it('without the key, against a store holding sealed data, every command refuses and writes nothing', { timeout: CLI_RUNS_TIMEOUT }, async () => {
    const storage = await createStorage(suite().storage.engine, suite().runDir, 'cli-no-key');
    try {
      const env = await envOf(storage);
      // A production deployment: its key is configured (here in the variable), the store seeded.
      const production = { ...env, NODE_ENV: 'production' };
      const seeded = await runCli(production, ['recover', 'bootstrap-admin', '--email', 'prod@example.test']);
      expect(seeded.code, seeded.stderr).toBe(0);

      // An operator runs the CLI in a shell without the server's environment: no NODE_ENV, no key.
      const bare = withoutKey(env);
      for (const args of [
        ['keys', 'rotate'],
        ['recover', 'bootstrap-admin', '--email', 'prod@example.test'],
        ['realm', 'export', '--realm', 'control'],
      ]) {
        const r = await runCli(bare, args, undefined, workDir('cli'));
        expect(r.code, `${args.join(' ')}: ${r.stdout}`).not.toBe(0);
        expect(r.stderr).toMatch(/no encryption key is configured, and this store .* holds data sealed with one/);
        expect(r.stderr).toMatch(/gatehouse\.key/);
        expect(r.stdout).toBe('');
      }
      // No key was stored, and the production server and CLI still start and open the sealed keys.
      const stored = await runCli(bare, ['keys', 'export-secret'], undefined, workDir('cli'));
      expect(stored.stderr).toMatch(/keeps no encryption key/);
      const rotated = await runCli(production, ['keys', 'rotate']);
      expect(rotated.code, rotated.stderr).toBe(0);
      const server = await startServer({ name: 'after-bare-cli', port: await freePort(), mode: suite().mode, env, logDir: suite().runDir });
      await server.stop();
    } finally {
      await destroyStorage(storage);
    }
  });

  it('without any key or data, the CLI refuses too instead of generating one', { timeout: CLI_RUNS_TIMEOUT }, async () => {
    const storage = await createStorage(suite().storage.engine, suite().runDir, 'cli-empty');
    try {
      const r = await runCli(withoutKey(await envOf(storage)), ['recover', 'bootstrap-admin', '--email', 'new@example.test'], undefined, workDir('cli'));
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/no encryption key is configured[,.] .*gatehouse\.key/);
      expect((await runCli(withoutKey(await envOf(storage)), ['keys', 'export-secret'], undefined, workDir('cli'))).stderr).toMatch(/keeps no encryption key/);

      // Run where the server does not run (no GATEHOUSE_DATA_DIR, no DATABASE_URL, another
      // directory): refused, saying where it looked, and no store is created there.
      const { GATEHOUSE_DATA_DIR: _dir, DATABASE_URL: _url, ...elsewhere } = withoutKey(await envOf(storage));
      const dir = workDir('elsewhere');
      const lost = await runCli(elsewhere, ['keys', 'rotate'], undefined, dir);
      expect(lost.code).not.toBe(0);
      expect(lost.stderr).toContain(`there is no store at ${join(dir, 'data', 'global.db')}`);
      expect(existsSync(join(dir, 'data'))).toBe(false);
    } finally {
      await destroyStorage(storage);
    }
  });
});

describe('./gatehouse.key, the default place of the key (issue 30 item 3)', () => {
  it('the CLI and the server read gatehouse.key in their working directory when no variable names the key', { timeout: CLI_RUNS_TIMEOUT }, async () => {
    const storage = await createStorage(suite().storage.engine, suite().runDir, 'key-file');
    try {
      const key = Buffer.alloc(32, 9).toString('base64');
      const dir = workDir('install');
      writeFileSync(join(dir, 'gatehouse.key'), key + '\n', { mode: 0o600 });
      const bare = withoutKey(await envOf(storage));

      // The README's flow: the CLI in the install directory, no NODE_ENV, no variable.
      const invited = await runCli(bare, ['recover', 'bootstrap-admin', '--email', 'first@example.test'], undefined, dir);
      expect(invited.code, invited.stderr).toBe(0);
      // Production too: the file is the configured key, nothing is kept in the store.
      const rotated = await runCli({ ...bare, NODE_ENV: 'production' }, ['keys', 'rotate'], undefined, dir);
      expect(rotated.code, rotated.stderr).toBe(0);
      expect((await runCli(bare, ['keys', 'export-secret'], undefined, dir)).stderr).toMatch(/keeps no encryption key/);
      // What the file's key sealed opens with the same key given in the variable.
      expect((await runCli({ ...bare, NODE_ENV: 'production', GATEHOUSE_SECRET_KEY: key }, ['keys', 'rotate'], undefined, workDir('cli'))).code).toBe(0);

      // The server reads the same file: a stored copy that differs from it is named in the refusal.
      await putStoredPlatformKey(storage, Buffer.alloc(32, 4).toString('base64'));
      const refused = await failedStart(bare, dir);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain(`differs from the key file ${join(dir, 'gatehouse.key')}`);
    } finally {
      await destroyStorage(storage);
    }
  });

  it('a gatehouse.key that other users can read is refused by the server and the CLI', async () => {
    const dir = workDir('loose');
    writeFileSync(join(dir, 'gatehouse.key'), Buffer.alloc(32, 5).toString('base64'));
    chmodSync(join(dir, 'gatehouse.key'), 0o644);
    const bare = withoutKey(await envOf(suite().storage));
    const cli = await runCli(bare, ['keys', 'rotate'], undefined, dir);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toMatch(/can be read or written by other users; make it private: chmod 600/);
    expect((await failedStart(bare, dir)).output).toMatch(/chmod 600/);
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
