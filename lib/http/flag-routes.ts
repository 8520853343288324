import { z } from 'zod';
import { notFound } from '../errors/app-error';
import { logError } from '../log/logger';
import { className, evaluateProperty, FLAG_EVALUATION_FAILED, propertiesOf, type FlagClass, type FlagProperty } from '../domain/flags/registry';
import type { RateLimitPolicyName } from '../rate-limit/policies';
import { defineEndpoint, type AnyEndpoint, type AuthMode, type Endpoint } from './endpoint';
import { problemResponse } from './respond';
import { toRouteHandler } from './route';

// The evaluation routes of spec 4.10: `mapFlags` / `mapEntitlements` turn registered classes into
// `GET` (plain property) and `POST` (contextual property, the body is its input)
// `/{prefix}/{ClassName}/{PropertyName}`, each an ordinary endpoint declaration, so the route wrapper
// applies the group's authentication, rate limit and the usual order of checks. One dynamic route
// file per prefix dispatches to them (`app/flags/[className]/[propertyName]/route.ts`).

export type FlagRouteOptions = {
  /** Path prefix; `/flags` for flags and `/entitlements` for entitlements by default. */
  prefix?: string;
  /** `user` (the default): a session cookie, or a Management API bearer token when `bearer` is set. */
  auth?: Extract<AuthMode, 'user' | 'anonymous'>;
  /** Also accept a Management API bearer token (the default). `false`: cookie only. */
  bearer?: 'management' | false;
  rateLimit?: RateLimitPolicyName;
  /** Origins whose pages may call the routes from the browser (`*`: any); `credentials` sends cookies. */
  cors?: { origins: readonly string[] | '*'; credentials?: boolean; maxAgeSeconds?: number };
  /** OpenAPI tag. */
  tag?: string;
};

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
type Handler = (request: Request, next?: NextRouteContext) => Promise<Response>;

export type FlagRouteGroup = {
  prefix: string;
  /** The declarations, for the catalog and the OpenAPI document. */
  endpoints: readonly { exportName: string; endpoint: AnyEndpoint }[];
  GET: Handler;
  POST: Handler;
  OPTIONS: Handler;
};

/** The 500 of spec 7 for a resolver that failed: exactly these three members. */
export function evaluationFailedResponse(detail: string): Response {
  return new Response(JSON.stringify({ detail, title: FLAG_EVALUATION_FAILED, statusCode: 500 }), {
    status: 500,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
  });
}

/** `{ value }` in lower case (CONTRACT.md casing: the spec's own body), not through toWire. */
export function valueResponse(value: unknown): Response {
  return new Response(JSON.stringify({ value }), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
}

function endpointFor(property: FlagProperty, prefix: string, options: FlagRouteOptions, tag: string): Endpoint<unknown, undefined, undefined, z.ZodType> {
  const contextual = property.kind === 'contextual';
  return defineEndpoint<unknown, undefined, undefined, z.ZodType>({
    method: contextual ? 'POST' : 'GET',
    path: `${prefix}/${property.className}/${property.propertyName}`,
    summary: `Evaluates ${property.key}${contextual ? ' for the input in the body' : ''}`,
    tags: [tag],
    auth: options.auth ?? 'user',
    ...(options.bearer === false ? {} : { bearer: 'management' as const }),
    rateLimit: options.rateLimit,
    // The POST carries the resolver's input and changes nothing, so a cross-origin call is no
    // forgery risk; which origins may read the answer is the CORS policy's business.
    ...(contextual ? { body: property.input, crossSitePost: true as const } : {}),
    response: z.object({ value: property.value }),
    async handler({ ctx, body }) {
      const outcome = await evaluateProperty(ctx, property, body, { inputParsed: true });
      if (outcome.ok) return valueResponse(outcome.value);
      logError(`flag evaluation ${property.key}`, outcome.cause);
      return evaluationFailedResponse(outcome.detail);
    },
  });
}

function corsHeaders(cors: FlagRouteOptions['cors'], request: Request): Headers {
  const headers = new Headers();
  const origin = request.headers.get('origin');
  if (!cors) return headers;
  headers.set('vary', 'Origin');
  if (!origin || (cors.origins !== '*' && !cors.origins.includes(origin))) return headers;
  // With cookies the origin is named (a browser refuses `*` with credentials).
  headers.set('access-control-allow-origin', cors.origins === '*' && !cors.credentials ? '*' : origin);
  if (cors.credentials) headers.set('access-control-allow-credentials', 'true');
  return headers;
}

function mapRoutes(classes: readonly FlagClass[], defaultPrefix: string, defaultTag: string, options: FlagRouteOptions): FlagRouteGroup {
  const prefix = (options.prefix ?? defaultPrefix).replace(/\/+$/, '');
  if (!/^(\/[a-z0-9-]+)+$/.test(prefix)) throw new Error(`Flag route prefix ${prefix} must be a path like /flags.`);
  const tag = options.tag ?? defaultTag;
  const handlers = new Map<string, Handler>();
  const endpoints: { exportName: string; endpoint: AnyEndpoint }[] = [];
  for (const c of classes) {
    for (const property of propertiesOf(c)) {
      const endpoint = endpointFor(property, prefix, options, tag);
      const key = `${endpoint.method} ${className(c)}/${property.propertyName}`;
      if (handlers.has(key)) throw new Error(`${key} is registered twice.`);
      handlers.set(key, toRouteHandler(endpoint));
      endpoints.push({ exportName: `evaluate${className(c)}${property.propertyName}`, endpoint });
    }
  }

  const dispatch =
    (method: 'GET' | 'POST'): Handler =>
    async (request, next) => {
      const params = (await next?.params) ?? {};
      // Exact spelling: a class or property is found only under the name it was declared with. A
      // GET of a contextual property or a POST of a plain one is no key either: 404.
      const handler = handlers.get(`${method} ${String(params.className)}/${String(params.propertyName)}`);
      const response = handler ? await handler(request, next) : problemResponse(notFound());
      corsHeaders(options.cors, request).forEach((v, k) => response.headers.set(k, v));
      return response;
    };

  const OPTIONS: Handler = async (request) => {
    const headers = corsHeaders(options.cors, request);
    if (headers.has('access-control-allow-origin')) {
      headers.set('access-control-allow-methods', 'GET, POST');
      headers.set('access-control-allow-headers', 'authorization, content-type');
      headers.set('access-control-max-age', String(options.cors?.maxAgeSeconds ?? 600));
    }
    return new Response(null, { status: 204, headers });
  };

  return { prefix, endpoints, GET: dispatch('GET'), POST: dispatch('POST'), OPTIONS };
}

/** Maps the flag classes to `GET`/`POST {prefix}/{ClassName}/{PropertyName}` (prefix `/flags`). */
export function mapFlags(classes: readonly FlagClass[], options: FlagRouteOptions = {}): FlagRouteGroup {
  return mapRoutes(classes, '/flags', 'Flags', options);
}

/** Maps the entitlement classes the same way under `/entitlements`. */
export function mapEntitlements(classes: readonly FlagClass[], options: FlagRouteOptions = {}): FlagRouteGroup {
  return mapRoutes(classes, '/entitlements', 'Entitlements', options);
}
