import type { z } from 'zod';
import type { AppContextSlug } from '../authz/catalog';
import type { DomainContext } from '../domain/context';
import type { RateLimitPolicyName } from '../rate-limit/policies';

// One declaration per endpoint (ARCHITECTURE.md): input schemas, authentication, permission,
// rate-limit policy and response schema together. The route wrapper enforces it, and the OpenAPI
// document is generated from the same declarations.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** anonymous: no session needed; optional: session read when present; user: a session is required. */
export type AuthMode = 'anonymous' | 'optional' | 'user';

export type HandlerInput<B, Q, P> = {
  ctx: DomainContext;
  body: B;
  query: Q;
  params: P;
  request: Request;
  /** Response headers the handler may add to (cookies). */
  headers: Headers;
};

/** A handler returns a body (answered with `status`), or a Response for full control. */
export type EndpointResult = unknown;

export type Endpoint<B = undefined, Q = undefined, P = undefined> = {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/api/admin/realms/{slug}`. */
  path: string;
  summary: string;
  tags: readonly string[];
  auth: AuthMode;
  /** App context of the permission check (spec 5.7.2); defaults to the main app. */
  app?: AppContextSlug;
  permission?: string;
  /**
   * Also accept an OAuth bearer token (spec 5.2): `management` = scope `gatehouse.management` and
   * audience `urn:gatehouse:management-api`, checked against the same live `permission`; `invite-read`
   * / `invite-write` = the app-bound invite-code scopes. Without it the route is cookie only.
   */
  bearer?: 'management' | 'invite-read' | 'invite-write';
  /** Realm-management surface: any host but the control plane's answers a bare 404 (spec 4.8). */
  controlPlaneOnly?: boolean;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** Allow-list the answer is parsed through, so a hash or secret cannot leak. */
  response?: z.ZodType;
  status?: number;
  rateLimit?: RateLimitPolicyName;
  bodyLimit?: number;
  // Method syntax on purpose: it lets a typed endpoint be stored in the untyped catalog.
  handler(input: HandlerInput<B, Q, P>): Promise<EndpointResult>;
};

// The declaration keeps its exact input types; the catalog stores them erased.
export type AnyEndpoint = Endpoint<unknown, unknown, unknown>;

export function defineEndpoint<B = undefined, Q = undefined, P = undefined>(e: Endpoint<B, Q, P>): Endpoint<B, Q, P> {
  return e;
}
