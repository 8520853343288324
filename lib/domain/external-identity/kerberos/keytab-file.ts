import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shared } from '@/lib/runtime/shared';

// GSSAPI reads an acceptor's keys from a keytab file, never from memory, so each provider's keytab
// (stored sealed in the realm database) is written to a file for as long as the process runs: in a
// directory of this process only (mode 0700, made by mkdtemp), each file mode 0600 and named by the
// SHA-256 of its bytes, so a provider's keytab is written once and a replaced one gets a new name.
// The directory is removed when the process exits (or by removeKeytabFiles at shutdown); a file removed meanwhile (a /tmp cleaner) is
// written again. Old files are dropped beyond MAX_FILES (a process
// serving many realms whose keytabs rotate); callers hold the acceptor lock, so none is in use then.

const MAX_FILES = 64;

type KeytabFiles = { dir: Promise<string> | undefined; paths: Map<string, string> };

function state(): KeytabFiles {
  return shared<KeytabFiles>('kerberos.keytabFiles', () => ({ dir: undefined, paths: new Map<string, string>() }));
}

function directory(files: KeytabFiles): Promise<string> {
  files.dir ??= mkdtemp(join(tmpdir(), 'gatehouse-keytabs-')).then((dir) => {
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  });
  return files.dir;
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The path of a private file holding `keytab`, written on first use. Call it under the acceptor lock. */
export async function keytabFile(keytab: Buffer): Promise<string> {
  const files = state();
  const hash = createHash('sha256').update(keytab).digest('hex');
  const known = files.paths.get(hash);
  if (known && (await exists(known))) {
    // Most recently used last, so the oldest is dropped first.
    files.paths.delete(hash);
    files.paths.set(hash, known);
    return known;
  }
  const dir = await directory(files);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${hash}.keytab`);
  await writeFile(path, keytab, { mode: 0o600 });
  files.paths.delete(hash);
  files.paths.set(hash, path);
  while (files.paths.size > MAX_FILES) {
    const [oldest, oldPath] = files.paths.entries().next().value as [string, string];
    files.paths.delete(oldest);
    await rm(oldPath, { force: true });
  }
  return path;
}

/** Removes the directory and every keytab file (shutdown, tests); later acceptances write them again. */
export async function removeKeytabFiles(): Promise<void> {
  const files = state();
  const dir = files.dir;
  files.dir = undefined;
  files.paths.clear();
  if (dir) await rm(await dir, { recursive: true, force: true });
}
