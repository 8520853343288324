// Production build: Next's app, then server.ts bundled by esbuild into dist/ (packages
// stay external and load from node_modules, so there is one copy of each at run time).
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ensureNextTsconfig } from './next-tsconfig.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
ensureNextTsconfig(root);
// `--server-only` rebuilds just dist/server.js (a change confined to code only server.ts runs).
if (!process.argv.includes('--server-only')) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], { cwd: root, stdio: 'inherit' });
}
await build({
  entryPoints: { server: join(root, 'server.ts') },
  outdir: join(root, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  tsconfig: join(root, 'tsconfig.json'),
  banner: { js: "import { createRequire as __gh_createRequire } from 'node:module'; const require = __gh_createRequire(import.meta.url);" },
  logLevel: 'warning',
});
console.log('built dist/server.js');
