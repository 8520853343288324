import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalogEntries, catalogModules } from './catalog';

// The catalog must hold every endpoint the REST surface serves, or the OpenAPI document silently
// misses operations. These tests read the source tree: every lib/api/*-endpoints.ts module is
// imported by catalog.ts, and every handler a route file under app/api exports is a
// toRouteHandler(<endpoint>) of a catalog endpoint whose method and path match the file.

const root = fileURLToPath(new URL('../../', import.meta.url));
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Route files that are deliberately not part of the documented API. */
const UNDOCUMENTED_ROUTES = new Set([
  'app/api/[...path]/route.ts', // problem+json 404 for /api paths no route declares
]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = join(dir, d.name);
    if (d.isDirectory()) return routeFiles(full);
    return d.name === 'route.ts' || d.name === 'route.tsx' ? [full] : [];
  });
}

/** `app/api/admin/realms/[slug]/route.ts` -> `/api/admin/realms/{slug}` (route groups dropped). */
function pathTemplateOf(file: string): string {
  const segments = relative(join(root, 'app'), file).split(sep).slice(0, -1);
  return (
    '/' +
    segments
      .filter((s) => !/^\(.*\)$/.test(s))
      .map((s) => s.replace(/^\[\.{0,3}(.+)\]$/, '{$1}'))
      .join('/')
  );
}

/** Imported names and the lib/api endpoints module each comes from. */
function endpointImports(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"](?:@\/lib\/api\/|(?:\.\.\/)+lib\/api\/)([a-z0-9-]+)-endpoints['"]/g)) {
    for (const spec of m[1].split(',')) {
      const [imported, local] = spec.trim().split(/\s+as\s+/);
      if (imported) out.set((local ?? imported).trim(), `${m[2]}:${imported.trim()}`);
    }
  }
  return out;
}

/** Every handler exported by a route file under app/api: what it binds, and what is wrong with it. */
function routeBindings(): { problems: string[]; served: string[]; files: number } {
  const byKey = new Map(catalogEntries.map((e) => [`${e.module}:${e.exportName}`, e.endpoint]));
  const problems: string[] = [];
  const served: string[] = [];
  const files = routeFiles(join(root, 'app', 'api'));
  for (const file of files) {
    const rel = relative(root, file).split(sep).join('/');
    if (UNDOCUMENTED_ROUTES.has(rel)) continue;
    const source = readFileSync(file, 'utf8');
    const imports = endpointImports(source);
    const exported = [...source.matchAll(/export\s+(?:const|(?:async\s+)?function)\s+([A-Z]+)\b/g)].map((m) => m[1]).filter((n) => HTTP_METHODS.includes(n));
    if (exported.length === 0) problems.push(`${rel}: exports no handler`);
    for (const method of exported) {
      const bound = new RegExp(`export\\s+const\\s+${method}\\s*=\\s*toRouteHandler\\(\\s*([A-Za-z0-9_$]+)\\s*\\)`).exec(source);
      if (!bound) {
        problems.push(`${rel}: ${method} is not toRouteHandler(<endpoint from lib/api>)`);
        continue;
      }
      const key = imports.get(bound[1]);
      const endpoint = key ? byKey.get(key) : undefined;
      if (!endpoint) {
        problems.push(`${rel}: ${method} binds ${bound[1]}${key ? ` (${key})` : ''}, which is not in the catalog`);
        continue;
      }
      if (endpoint.method !== method) problems.push(`${rel}: ${method} binds ${bound[1]}, declared as ${endpoint.method}`);
      if (endpoint.path !== pathTemplateOf(file)) problems.push(`${rel}: ${bound[1]} declares path ${endpoint.path}, the file serves ${pathTemplateOf(file)}`);
      served.push(`${method} ${pathTemplateOf(file)}`);
    }
  }
  return { problems, served, files: files.length };
}

describe('endpoint catalog', () => {
  it('imports every lib/api/*-endpoints.ts module', () => {
    const stems = readdirSync(join(root, 'lib', 'api'))
      .filter((f) => /-endpoints\.tsx?$/.test(f))
      .map((f) => f.replace(/-endpoints\.tsx?$/, ''));
    expect(stems.length).toBeGreaterThan(0);
    const missing = stems.filter((s) => !catalogModules.includes(s));
    expect(missing, `add these modules to lib/api/catalog.ts: ${missing.join(', ')}`).toEqual([]);
  });

  it('declares each method and path once', () => {
    const keys = catalogEntries.map((e) => `${e.endpoint.method} ${e.endpoint.path}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('holds the endpoint of every handler exported by a route under app/api', () => {
    const { problems, files } = routeBindings();
    expect(files).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  // server.ts answers the /api endpoints of the catalog itself (lib/http/direct-routes.ts): one
  // without its route file would be served there while Next, on the same path, answers 404.
  it('has a route file under app/api for every /api endpoint', () => {
    const served = new Set(routeBindings().served);
    const unbound = catalogEntries
      .map((e) => `${e.endpoint.method} ${e.endpoint.path}`)
      .filter((key) => key.split(' ')[1].startsWith('/api/') && !served.has(key));
    expect(unbound).toEqual([]);
  });
});
