import { readFile } from 'node:fs/promises';
import { applyManifest } from '../domain/manifests/apply';
import { exportManifest } from '../domain/manifests/export';
import { planIsEmpty } from '../domain/manifests/plan';
import { isAppError } from '../errors/app-error';
import { domainContext, type DomainContext } from '../realm/context';
import { getRealmRecordBySlug } from '../realm/realm-store';
import { toWire } from '../web/casing';

// `gatehouse realm export --realm S` and `gatehouse realm apply --realm S FILE|- [--prune] [--dry-run]`
// (docs/manifests.md): configuration as code for pipelines. Export prints the manifest on stdout.
// Apply prints the plan as the apply endpoint answers it, and exits 0 when applied (or nothing
// drifted), 1 when the manifest is refused (each problem on stderr at its JSON pointer), 2 when a
// dry run finds changes, so CI can gate on drift. Both act as the platform, as the other commands do.

export const EXIT = { ok: 0, invalid: 1, drift: 2 } as const;

type Io = { out: (text: string) => void; err: (line: string) => void; stdin: () => Promise<string> };

async function realmContext(options: Record<string, string | true>, command: string): Promise<DomainContext> {
  if (typeof options.realm !== 'string') throw new Error('--realm SLUG is required');
  const realm = await getRealmRecordBySlug(options.realm);
  if (!realm) throw new Error(`no realm with slug ${options.realm}`);
  return domainContext(realm, { kind: 'system', reason: `cli realm ${command}` });
}

export async function realmExport(options: Record<string, string | true>, io: Io): Promise<number> {
  const manifest = await exportManifest(await realmContext(options, 'export'));
  io.out(JSON.stringify(toWire(manifest), null, 2) + '\n');
  return EXIT.ok;
}

export async function realmApply(positional: string[], options: Record<string, string | true>, io: Io): Promise<number> {
  if (positional.length !== 1) throw new Error('give the manifest file, or - for standard input');
  const ctx = await realmContext(options, 'apply');
  const file = positional[0];
  const text = file === '-' ? await io.stdin() : await readFile(file, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    io.err(`${file === '-' ? 'standard input' : file} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.invalid;
  }
  const dryRun = options['dry-run'] === true;
  try {
    const answer = await applyManifest(ctx, raw, { prune: options.prune === true, dryRun });
    io.out(JSON.stringify(answer, null, 2) + '\n');
    return dryRun && !planIsEmpty(answer) ? EXIT.drift : EXIT.ok;
  } catch (e) {
    if (!isAppError(e) || e.status >= 500) throw e;
    io.err(`${e.code}: ${e.detail ?? e.message}`);
    for (const [pointer, messages] of Object.entries(e.errors ?? {})) for (const m of messages) io.err(`${pointer}: ${m}`);
    return EXIT.invalid;
  }
}

/** `--prune FILE` reads as an option with a value to the argument parser: a flag takes none. */
export function splitFlags(parsed: { positional: string[]; options: Record<string, string | true> }, flags: readonly string[]) {
  const positional = [...parsed.positional];
  const options = { ...parsed.options };
  for (const flag of flags) {
    const value = options[flag];
    if (typeof value === 'string') {
      positional.push(value);
      options[flag] = true;
    }
  }
  return { positional, options };
}
