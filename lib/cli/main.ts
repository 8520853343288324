import { closeGlobalDb } from '../db/global-db';
import { migrateAll } from '../db/migrate-all';
import { closeAllRealmDbs } from '../db/realm-pool';
import { drainEvents } from '../events/bus';
import { usePrivateUmask } from '../runtime/private-files';
import { startUp } from '../startup/start-up';
import { exportSecret } from './export-secret';
import { parseArgs } from './args';
import { realmApply, realmExport, splitFlags } from './realm-manifest';
import { recoverBootstrapAdmin } from './recover-bootstrap-admin';
import { rotateKeys } from './rotate-keys';

// `npx gatehouse <command>`: same environment (and working directory, where ./gatehouse.key is
// looked for) as the server, safe to run while it runs. It never creates the encryption key: it finds
// the server's or refuses, writing nothing (crypto/secret-box.ts checkPlatformKey).
const USAGE = `Usage:
  gatehouse recover bootstrap-admin --email E [--username U] [--realm SLUG] [--password P]
  gatehouse keys rotate [--realm SLUG]
  gatehouse keys export-secret
  gatehouse migrate
  gatehouse realm export --realm SLUG
  gatehouse realm apply --realm SLUG FILE|- [--prune] [--dry-run]
`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function run(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  const out = (line: string) => process.stdout.write(line + '\n');
  if (command === 'recover' && sub === 'bootstrap-admin') {
    const { options } = parseArgs(rest, new Set(['email', 'username', 'realm', 'password']));
    await startUp({ seed: true, relay: true, mayCreateKey: false });
    await recoverBootstrapAdmin(options, out);
    return 0;
  }
  if (command === 'keys' && sub === 'rotate') {
    const { positional, options } = parseArgs(rest, new Set(['realm']));
    if (positional.length) throw new Error(`unexpected argument ${positional[0]}`);
    // The relay tells running servers with Redis to rebuild the realm's engine at once.
    await startUp({ seed: false, relay: true, mayCreateKey: false });
    await rotateKeys(options, out);
    return 0;
  }
  if (command === 'keys' && sub === 'export-secret') {
    // No start-up check: this is how a production deployment without the key gets it out.
    await exportSecret(out);
    return 0;
  }
  if (command === 'realm' && (sub === 'export' || sub === 'apply')) {
    const io = { out: (text: string) => process.stdout.write(text), err: (line: string) => process.stderr.write(line + '\n'), stdin: readStdin };
    const { positional, options } = splitFlags(parseArgs(rest, new Set(['realm', 'prune', 'dry-run'])), ['prune', 'dry-run']);
    if (sub === 'export') {
      if (positional.length || options.prune || options['dry-run']) throw new Error('realm export takes only --realm');
      await startUp({ seed: false, relay: false, mayCreateKey: false });
      return realmExport(options, io);
    }
    // The relay tells running servers with Redis to drop their caches of the realm at once.
    await startUp({ seed: false, relay: true, mayCreateKey: false });
    return realmApply(positional, options, io);
  }
  if (command === 'migrate') {
    const report = await migrateAll((line: string) => process.stderr.write(line + '\n'));
    out(JSON.stringify(report));
    return 0;
  }
  process.stderr.write(USAGE);
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}

usePrivateUmask();
run(process.argv.slice(2))
  .then(async (code) => {
    await drainEvents();
    await closeAllRealmDbs();
    await closeGlobalDb();
    process.exit(code);
  })
  .catch((e: unknown) => {
    process.stderr.write(`gatehouse: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
