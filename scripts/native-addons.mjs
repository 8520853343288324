// Gatehouse runs on the Node.js of its `node` dependency (node_modules/.bin/node, which npm scripts
// put first on PATH), while npm itself may run on the machine's older Node and build native addons
// against that one's headers (npm's `nodedir`). Run after install (postinstall) and by the test
// script: each native addon that does not load in this Node is rebuilt against this Node's own
// headers, which the platform package of `node` ships. Optional addons that are absent are skipped.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

/** Each addon with a line that loads its binary (better-sqlite3 opens it only with a database). */
const ADDONS = [
  { name: 'better-sqlite3', probe: "new (require('better-sqlite3'))(':memory:').close()" },
  { name: 'kerberos', probe: "require('kerberos')" },
];

/** The headers of the running Node, from the `node` package's platform package. */
export function nodeHeadersDir() {
  const dir = join(root, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
  return existsSync(join(dir, 'include', 'node', 'node_version.h')) ? dir : null;
}

function installed(name) {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

function loads(probe) {
  try {
    execFileSync(process.execPath, ['-e', probe], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function rebuildNativeAddons() {
  const headers = nodeHeadersDir();
  for (const { name, probe } of ADDONS) {
    if (!installed(name) || loads(probe)) continue;
    console.log(`native-addons: rebuilding ${name} for Node.js ${process.version}${headers ? ` against ${headers}` : ''}`);
    execFileSync('npm', ['rebuild', name, ...(headers ? [`--nodedir=${headers}`] : [])], { cwd: root, stdio: 'inherit' });
    if (!loads(probe)) throw new Error(`native-addons: ${name} still does not load in Node.js ${process.version} after a rebuild`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) rebuildNativeAddons();
