#!/usr/bin/env node
// Entry of `npx gatehouse`: runs the TypeScript source through tsx, so the CLI can never be an
// older build than the code beside it.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { requireGatehouseNode } = await import(pathToFileURL(join(root, 'scripts', 'require-node.mjs')).href);
requireGatehouseNode('gatehouse');
const { register } = await import('tsx/esm/api');
register({ tsconfig: join(root, 'tsconfig.json') });
await import(pathToFileURL(join(root, 'lib', 'cli', 'main.ts')).href);
