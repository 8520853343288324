// ESLint rule: no cycles between domain concepts (docs/architecture.md "Layers"). import-x/no-cycle
// sees cycles between files; this one sees them between the folders of lib/domain, which is where a
// concept's ownership gets muddled (users -> groups -> users). Type imports count: a concept that
// needs another's types depends on it. Tests are left out: they may drive any concept.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveFile(root, from, spec) {
  let base;
  if (spec.startsWith('@/')) base = join(root, spec.slice(2));
  else if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** The concept (folder under lib/domain) of a file, or null for files elsewhere or at lib/domain's root. */
function conceptOf(root, file) {
  const parts = relative(root, file).split(sep);
  return parts[0] === 'lib' && parts[1] === 'domain' && parts.length > 3 ? parts[2] : null;
}

const isTest = (file) => /\.test\.tsx?$/.test(file);

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name) && !isTest(entry.name)) yield path;
  }
}

const graphs = new Map();

/** concept -> concept -> one file that makes the edge (for the message); built once per run. */
function conceptGraph(root) {
  let graph = graphs.get(root);
  if (graph) return graph;
  graph = new Map();
  for (const file of sourceFiles(join(root, 'lib', 'domain'))) {
    const from = conceptOf(root, file);
    if (!from) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveFile(root, file, match[1] ?? match[2]);
      const to = target && conceptOf(root, target);
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from).has(to)) graph.get(from).set(to, relative(root, file));
    }
  }
  graphs.set(root, graph);
  return graph;
}

/** A path of concepts from `start` to `goal`, or null. */
function pathBetween(graph, start, goal) {
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length) {
    const path = queue.shift();
    const last = path[path.length - 1];
    if (last === goal) return path;
    for (const next of graph.get(last)?.keys() ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...path, next]);
    }
  }
  return null;
}

export const conceptCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycles between the concepts (folders) of lib/domain' },
    schema: [],
    messages: {
      cycle:
        'lib/domain/{{from}} imports lib/domain/{{to}}, which already depends on {{from}} ({{path}}, first via {{via}}): move the shared piece down or to one side',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const from = conceptOf(root, file);
    if (!from || isTest(file)) return {};
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string') return;
      const target = resolveFile(root, file, node.source.value);
      const to = target && conceptOf(root, target);
      if (!to || to === from) return;
      const graph = conceptGraph(root);
      const back = pathBetween(graph, to, from);
      if (!back) return;
      context.report({ node: node.source, messageId: 'cycle', data: { from, to, path: back.join(' -> '), via: graph.get(back[0]).get(back[1]) } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: (node) => check({ source: node.source }) };
  },
};
