// Writes tsconfig.next.json, the copy of tsconfig.json that Next reads and rewrites (next.config.mjs
// `typescript.tsconfigPath`). Called before `next build` and before the development server starts.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function ensureNextTsconfig(root) {
  const file = join(root, 'tsconfig.next.json');
  if (existsSync(file)) return;
  writeFileSync(file, `${JSON.stringify({ extends: './tsconfig.json', include: ['next-env.d.ts', '**/*.ts', '**/*.tsx'] }, null, 2)}\n`);
}
