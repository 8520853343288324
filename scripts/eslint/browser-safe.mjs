// ESLint rule: components/ reach the browser, so what they value-import from lib/ must be
// browser-safe (docs/architecture.md "Layers"): a module whose value imports, followed all the way
// down, are only zod and other such modules. Schemas, rule tables and pure helpers pass; anything
// that touches a database, the file system, the configuration or a server package does not.
// `import type` is always fine: types vanish from the bundle.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ALLOWED_PACKAGES = new Set(['zod']);
// Value imports and re-exports; `import type` / `export type` statements are skipped by the caller.
const STATEMENT = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

function resolveFile(root, from, spec) {
  let base;
  if (spec.startsWith('@/')) base = join(root, spec.slice(2));
  else if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** True when every specifier of `import { type A, type B }` is a type. */
const allTypes = (clause) =>
  /^\{[^}]*\}$/.test(clause.trim()) &&
  clause
    .replace(/[{}\s]/g, '')
    .split(',')
    .filter(Boolean)
    .every((s) => s.startsWith('type'));

const verdicts = new Map();

/** null when `file` is browser-safe, else the chain that makes it not. */
function whyNotSafe(root, file) {
  if (verdicts.has(file)) return verdicts.get(file);
  verdicts.set(file, null); // a cycle back here adds nothing new
  let why = null;
  for (const m of readFileSync(file, 'utf8').matchAll(STATEMENT)) {
    if (m[2] || (m[3] && allTypes(m[3]))) continue;
    const spec = m[4] ?? m[5];
    const target = resolveFile(root, file, spec);
    if (!target) {
      if (!ALLOWED_PACKAGES.has(spec)) why = [spec];
    } else if (!relative(root, target).startsWith(`lib/`)) {
      why = [relative(root, target)];
    } else {
      const deeper = whyNotSafe(root, target);
      if (deeper) why = [relative(root, target), ...deeper];
    }
    if (why) break;
  }
  verdicts.set(file, why);
  return why;
}

export const browserSafe = {
  meta: {
    type: 'problem',
    docs: { description: 'components/ value-import only browser-safe lib modules' },
    schema: [],
    messages: {
      unsafe:
        '{{module}} is not browser-safe (it imports {{chain}}): components/ value-import only modules built on zod alone; read data in app/ and pass it as props, or `import type`',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string' || node.importKind === 'type' || node.exportKind === 'type') return;
      if (node.specifiers?.length && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type')) return;
      const target = resolveFile(root, file, node.source.value);
      if (!target || !relative(root, target).startsWith('lib/')) return;
      const why = whyNotSafe(root, target);
      if (why) context.report({ node: node.source, messageId: 'unsafe', data: { module: relative(root, target), chain: why.join(' -> ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};
