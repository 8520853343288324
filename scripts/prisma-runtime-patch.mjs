// Every Prisma client decodes its schema's parameterization graph afresh when it is constructed:
// about 10,000 objects, 1.15 MiB of heap and 3.7 ms of CPU here, for data that is the same for every
// client of one generated schema and is only ever read. Gatehouse opens a client per realm database
// and evicts idle ones, so a fleet decoded the same graph again at every open: at 1,000 realms that
// churn was most of the server's memory (1.4-1.7 GiB RSS, issue 14) and half the cost of opening a
// realm. Prisma offers no way to share it (prisma/orm#5050), so after install this script makes the
// runtime's decoder remember its result per graph object (a WeakMap on globalThis, keyed by the
// generated client's own schema object, so two schemas never share an entry). Each client still
// builds its own view over the decoded data with its own enum resolver.
//
// The runtime is minified: the patch matches the decoder's shape, not its names, and fails the
// install when neither the patched nor the unpatched shape is found (a Prisma upgrade must look
// at this again). Idempotent: a patched file is left as it is.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

export const MARKER = '__gatehouseDecodedParameterization';
// `static deserialize(t,r){let n=Ba(t);return new e(n,r)}` in 7.x, whatever the minifier named them.
const DECODER = /static deserialize\((\w+),(\w+)\)\{let (\w+)=(\w+)\(\1\);return new (\w+)\(\3,\2\)\}/g;

export function patchedSource(source) {
  const matches = [...source.matchAll(DECODER)];
  if (matches.length !== 1) return null;
  const [whole, graph, enums, data, decode, cls] = matches[0];
  const memo = `(globalThis.${MARKER}??=new WeakMap)`;
  const replacement =
    `static deserialize(${graph},${enums}){let ${data}=${memo}.get(${graph});` +
    `if(${data}===void 0){${data}=${decode}(${graph});${memo}.set(${graph},${data})}` +
    `return new ${cls}(${data},${enums})}`;
  return source.replace(whole, replacement);
}

export function patchPrismaRuntime() {
  const runtimeDir = dirname(require.resolve('@prisma/client/runtime/client'));
  for (const file of ['client.js', 'client.mjs']) {
    const path = join(runtimeDir, file);
    const source = readFileSync(path, 'utf8');
    if (source.includes(MARKER)) continue;
    const next = patchedSource(source);
    if (next === null)
      throw new Error(
        `prisma-runtime-patch: the parameterization decoder was not found in ${path}; check scripts/prisma-runtime-patch.mjs against this Prisma version`,
      );
    writeFileSync(path, next);
    console.log(`prisma-runtime-patch: ${file} decodes each schema's parameterization graph once`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) patchPrismaRuntime();
