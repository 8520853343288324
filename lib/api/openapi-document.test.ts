import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogEntries } from './catalog';
import { defineEndpoint, type AnyEndpoint } from '../http/endpoint';
import { buildOpenApiDocument, type CatalogEntry, type OpenApiDocument, type Operation } from '../http/openapi';
import { openApiDocument } from './openapi-document';
import type { JsonSchema } from '../http/openapi-schema';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function operations(doc: OpenApiDocument): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as Operation })));
}

/** Every `$ref` string in the tree, with where it was found. */
function refs(node: unknown, at = '#', out: { ref: string; at: string }[] = []): { ref: string; at: string }[] {
  if (Array.isArray(node)) node.forEach((v, i) => refs(v, `${at}/${i}`, out));
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push({ ref: v, at });
      else refs(v, `${at}/${k}`, out);
    }
  }
  return out;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), doc);
}

const op = (doc: OpenApiDocument, method: (typeof METHODS)[number], path: string): Operation => {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
};

const jsonSchemaOf = (o: Operation, status: string): JsonSchema => {
  const r = o.responses[status] as { content?: Record<string, { schema: JsonSchema }> };
  return r.content?.['application/json']?.schema ?? {};
};

describe('OpenAPI document', () => {
  const doc = openApiDocument();

  it('is OpenAPI 3.1.0 with info, servers and the package version', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Gatehouse');
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(openApiDocument()).toBe(doc); // cached per process
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc); // plain JSON, nothing lost
  });

  it('has exactly one operation per catalog endpoint', () => {
    expect(catalogEntries.length).toBeGreaterThan(0);
    for (const { endpoint } of catalogEntries) {
      const o = op(doc, endpoint.method.toLowerCase() as (typeof METHODS)[number], endpoint.path);
      expect(o.summary).toBe(endpoint.summary);
      expect(o.tags).toEqual([...endpoint.tags]);
    }
    expect(operations(doc)).toHaveLength(catalogEntries.length);
  });

  it('has a valid structure: paths, methods, parameters, responses', () => {
    for (const { path, op: o } of operations(doc)) {
      expect(path).toMatch(/^\/[A-Za-z0-9/{}._-]*$/);
      expect(o.operationId).toMatch(/^[A-Za-z][A-Za-z0-9._]*$/);
      expect(Object.keys(o.responses).some((s) => /^2\d\d$/.test(s))).toBe(true);
      for (const status of Object.keys(o.responses)) expect(status).toMatch(/^[1-5]\d\d$/);
      const templateNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const pathParams = (o.parameters ?? []).filter((p) => p.in === 'path');
      expect(pathParams.map((p) => p.name).sort()).toEqual([...templateNames].sort());
      for (const p of pathParams) expect(p.required).toBe(true);
      const keys = (o.parameters ?? []).map((p) => `${p.in}:${p.name}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(typeof o['x-control-plane-only']).toBe('boolean');
    }
  });

  it('has unique operationIds', () => {
    const ids = operations(doc).map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resolves every $ref, and carries no JSON Schema $defs or $schema of its own', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(0);
    for (const { ref, at } of all) expect(resolvePointer(doc, ref), `${ref} at ${at}`).toBeDefined();
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"$defs"');
    expect(text).not.toContain('"$schema"');
  });

  it('shows PascalCase properties for POST /api/admin/realms, answers dates as date-time strings', () => {
    const create = op(doc, 'post', '/api/admin/realms');
    const body = create.requestBody?.content['application/json'].schema as JsonSchema;
    expect(Object.keys(body.properties as object)).toEqual(expect.arrayContaining(['Slug', 'DisplayName', 'Domains', 'InitialAdmin']));
    expect(body.required).toEqual(expect.arrayContaining(['Slug', 'DisplayName', 'Domains']));
    const answer = jsonSchemaOf(create, '201');
    const realm = (answer.properties as Record<string, JsonSchema>).Realm;
    const realmProps = realm.properties as Record<string, JsonSchema>;
    expect(Object.keys(realmProps)).toEqual(expect.arrayContaining(['Id', 'Slug', 'Domains', 'PrimaryDomain', 'IsControlPlane', 'CreatedAt']));
    expect(realmProps.CreatedAt).toEqual({ type: 'string', format: 'date-time' });
    // Answers omit null members, so the output side offers no null.
    expect(JSON.stringify(answer)).not.toContain('"null"');
  });

  it('documents authentication, permission, control-plane surface and the error answers', () => {
    const create = op(doc, 'post', '/api/admin/realms');
    expect(create.security).toEqual([{ sessionCookie: [] }]);
    expect(create['x-permission']).toBe('realm:write');
    expect(create['x-permission-app']).toBe('control-plane');
    expect(create['x-control-plane-only']).toBe(true);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404', '409', '413']));

    const login = op(doc, 'post', '/api/account/login');
    expect(login.security).toEqual([]);
    expect(login['x-permission']).toBeUndefined();
    expect(login.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    expect(login.responses['401']).toBeUndefined();

    const me = op(doc, 'get', '/api/account/me');
    expect(Object.keys(me.responses).sort()).toEqual(['200', '401', '404']);

    expect(doc.components.schemas.ProblemDetails).toBeDefined();
    expect(doc.components.schemas.RateLimitProblem).toBeDefined();
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie' });
  });

  it('turns query and path schemas into parameters from their input side', () => {
    const list = op(doc, 'get', '/api/admin/realms');
    const pageSize = list.parameters?.find((p) => p.name === 'pageSize');
    expect(pageSize).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', default: 25 } });
    const get = op(doc, 'get', '/api/admin/realms/{slug}');
    expect(get.parameters).toEqual([expect.objectContaining({ name: 'slug', in: 'path', required: true })]);
  });
});

describe('buildOpenApiDocument', () => {
  const entry = (exportName: string, endpoint: AnyEndpoint): CatalogEntry => ({ module: 'test', exportName, endpoint });

  it('hoists recursive schemas into components and keeps every $ref resolvable', () => {
    type Node = { Name: string; Children: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ Name: z.string(), Children: z.array(node) }));
    const tree = defineEndpoint({
      method: 'GET',
      path: '/api/tree/{id}',
      summary: 'A tree',
      tags: ['Test'],
      auth: 'anonymous',
      response: z.object({ Root: node, At: z.date() }),
      handler: async () => ({ Root: { Name: 'root', Children: [] }, At: new Date() }),
    });
    const d = buildOpenApiDocument([entry('treeEndpoint', tree)]);
    const o = op(d, 'get', '/api/tree/{id}');
    expect(o.operationId).toBe('tree');
    expect(o.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    for (const { ref } of refs(d)) expect(resolvePointer(d, ref), ref).toBeDefined();
    expect(Object.keys(d.components.schemas).some((k) => k.startsWith('tree.response'))).toBe(true);
    expect(jsonSchemaOf(o, '200').properties).toMatchObject({ At: { type: 'string', format: 'date-time' } });
  });

  it('refuses two endpoints on the same method and path', () => {
    const e = { method: 'GET', path: '/api/x', summary: 'x', tags: [], auth: 'anonymous', handler: async () => undefined } as AnyEndpoint;
    expect(() => buildOpenApiDocument([entry('aEndpoint', e), entry('bEndpoint', { ...e })])).toThrow(/two endpoints/);
  });
});
