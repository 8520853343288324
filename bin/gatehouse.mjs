#!/usr/bin/env node
// Entry of `npx gatehouse`: the bundled CLI after `npm run build`, else the TypeScript source via tsx.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli.js');
if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: join(root, 'tsconfig.json') });
  await import(pathToFileURL(join(root, 'lib', 'cli', 'main.ts')).href);
}
