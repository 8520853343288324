import packageJson from '../../package.json';
import type { AnyEndpoint } from './endpoint';
import { rateLimitPolicies } from '../rate-limit/policies';
import { errorResponsesFor, problemResponses, problemSchemas } from './openapi-problems';
import { SchemaConverter, type JsonSchema } from './openapi-schema';

// The OpenAPI 3.1 document of the REST surface, generated from the endpoint declarations
// (docs/architecture.md "One contract, typed end to end"): request schemas as the input side of zod, answers
// as the output side of the allow-list they are parsed through. Served at /swagger/v1/swagger.json
// and rendered at /swagger.

/** One declared endpoint and where it is declared (lib/api/catalog.ts collects them). */
export type CatalogEntry = {
  /** The endpoints module's file stem: `realm` for lib/api/realm-endpoints.ts. */
  module: string;
  /** The exported name of the declaration, e.g. `createRealmEndpoint`. */
  exportName: string;
  endpoint: AnyEndpoint;
};

export type Parameter = { name: string; in: 'path' | 'query'; required: boolean; description?: string; schema: JsonSchema };
export type MediaType = { schema: JsonSchema };
export type ResponseObject = { description: string; content?: Record<string, MediaType>; headers?: JsonSchema };
export type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | { $ref: string }>;
  security: Record<string, string[]>[];
  'x-permission'?: string;
  'x-permission-app'?: string;
  'x-control-plane-only': boolean;
  'x-rate-limit'?: { policy: string; limits: JsonSchema };
};
export type PathItem = Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', Operation>>;
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
};

const JSON_TYPE = 'application/json';
const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content' };

const DESCRIPTION = [
  'The REST surface of Gatehouse, generated from its endpoint declarations.',
  'The realm is chosen by the Host header; an unknown or inactive host answers 404 on every path.',
  'Request property names match case-insensitively; answers are PascalCase with null members omitted.',
  'Errors are application/problem+json (ProblemDetails). `x-permission` names the permission an operation',
  'requires of the signed-in user, checked in the App named by `x-permission-app` (default `gatehouse`);',
  '`x-control-plane-only` operations answer a bare 404 on any host but the control plane.',
].join(' ');

const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'gatehouse_session',
    description:
      'The browser session set by POST /api/account/login (`__Host-gatehouse_session` when the public scheme is https). ' +
      'Operations that also need a permission name it in `x-permission`.',
  },
};

/** `createRealmEndpoint` -> `createRealm`. */
function operationIdOf(entry: CatalogEntry): string {
  return entry.exportName.replace(/Endpoint$/, '') || `${entry.endpoint.method.toLowerCase()}${entry.endpoint.path}`;
}

function objectParameters(schema: JsonSchema, location: 'path' | 'query', templateNames: string[]): Parameter[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = s;
    const p: Parameter = { name, in: location, required: location === 'path' || required.has(name), schema: rest };
    if (typeof description === 'string') p.description = description;
    if (location === 'path' && !templateNames.includes(name)) throw new Error(`path parameter ${name} is not in the path template`);
    return p;
  });
}

function buildOperation(entry: CatalogEntry, converter: SchemaConverter, operationId: string): Operation {
  const e = entry.endpoint;
  const templateNames = [...e.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const parameters: Parameter[] = [];
  if (e.params) parameters.push(...objectParameters(converter.convert(e.params, 'input', `${operationId}.params`), 'path', templateNames));
  for (const name of templateNames) {
    if (!parameters.some((p) => p.in === 'path' && p.name === name)) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  if (e.query) parameters.push(...objectParameters(converter.convert(e.query, 'input', `${operationId}.query`), 'query', templateNames));

  const status = e.status ?? 200;
  const success: ResponseObject = { description: STATUS_TEXT[status] ?? 'Success' };
  if (status !== 204) success.content = { [JSON_TYPE]: { schema: e.response ? converter.convert(e.response, 'output', `${operationId}.response`) : {} } };

  let requestBody: Operation['requestBody'];
  if (e.body) {
    const schema = converter.convert(e.body, 'input', `${operationId}.request`);
    // An empty body reads as {} (lib/http/route.ts), so it is optional unless a member is required.
    requestBody = { required: Array.isArray(schema.required) && schema.required.length > 0, content: { [JSON_TYPE]: { schema } } };
  }
  const op: Operation = {
    operationId,
    summary: e.summary,
    tags: [...e.tags],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { [String(status)]: success, ...errorResponsesFor(e) },
    security: e.auth === 'user' ? [{ sessionCookie: [] }] : e.auth === 'optional' ? [{}, { sessionCookie: [] }] : [],
    ...(e.permission ? { 'x-permission': e.permission, 'x-permission-app': e.app ?? 'gatehouse' } : {}),
    'x-control-plane-only': e.controlPlaneOnly === true,
    ...(e.rateLimit ? { 'x-rate-limit': { policy: e.rateLimit, limits: rateLimitPolicies[e.rateLimit] } } : {}),
  };
  return op;
}

/** Builds the document from endpoint declarations (lib/api/openapi-document.ts passes the catalog). */
export function buildOpenApiDocument(entries: readonly CatalogEntry[]): OpenApiDocument {
  const converter = new SchemaConverter();
  const paths: Record<string, PathItem> = {};
  const tags: string[] = [];
  const usedIds = new Set<string>();
  for (const entry of entries) {
    let operationId = operationIdOf(entry);
    if (usedIds.has(operationId)) operationId = `${entry.module}.${operationId}`;
    usedIds.add(operationId);
    const method = entry.endpoint.method.toLowerCase() as keyof PathItem;
    const item = (paths[entry.endpoint.path] ??= {});
    if (item[method]) throw new Error(`two endpoints declare ${entry.endpoint.method} ${entry.endpoint.path}`);
    item[method] = buildOperation(entry, converter, operationId);
    for (const tag of entry.endpoint.tags) if (!tags.includes(tag)) tags.push(tag);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Gatehouse', version: packageJson.version, description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...problemSchemas, ...converter.components },
      responses: problemResponses,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
