import type { z } from 'zod';
import type { ControlPlanePermission, CONTROL_PLANE_APP_SLUG, MAIN_APP_SLUG, MainAppPermission } from '../authz/catalog';
import type { DomainContext } from '../realm/context';
import type { RealmRecord } from '../realm/realm-record';
import type { RateLimitPolicyName } from '../rate-limit/policies';

// One declaration per endpoint (docs/architecture.md): input schemas, authentication, permission,
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

/**
 * What a handler may return. With a response schema: the schema's input side, because the route
 * wrapper passes the value through `response.parse` (Dates in, the wire's ISO strings come from
 * `toWire` afterwards), or a Response for full control. Without one there is no body to check:
 * nothing (answered with `status`, e.g. 204) or a Response (redirects, files, raw JSON).
 */
export type HandlerResult<S extends ResponseSchema> = [S] extends [z.ZodType] ? z.input<S> | Response : void | Response;

/** The allow-list an answer is parsed through, or none. */
export type ResponseSchema = z.ZodType | undefined;

export type Endpoint<B = undefined, Q = undefined, P = undefined, S extends ResponseSchema = undefined> = {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/api/admin/realms/{slug}`. */
  path: string;
  summary: string;
  tags: readonly string[];
  auth: AuthMode;
  /**
   * Also accept an OAuth bearer token (spec 5.2): `management` = scope `gatehouse.management` and
   * audience `urn:gatehouse:management-api`, checked against the same live `permission`; `invite-read`
   * / `invite-write` = the app-bound invite-code scopes. Without it the route is cookie only.
   */
  bearer?: 'management' | 'invite-read' | 'invite-write';
  /** Realm-management surface: any host but the control plane's answers a bare 404 (spec 4.8). */
  controlPlaneOnly?: boolean;
  /**
   * A surface behind a realm feature switch (spec 3.6: positions while `PositionTerminals` is off):
   * a bare 404 when this answers false, checked before authentication so the surface stays hidden.
   */
  shownWhen?: (realm: RealmRecord) => Promise<boolean>;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** Allow-list the answer is parsed through, so a hash or secret cannot leak. */
  response?: S;
  status?: number;
  rateLimit?: RateLimitPolicyName;
  bodyLimit?: number;
  /** `form`: an application/x-www-form-urlencoded body (the SAML HTTP-POST binding); JSON otherwise. */
  bodyFormat?: 'json' | 'form';
  /**
   * Accept a cross-site POST: skips the same-origin check. Only for a route whose request carries
   * its own proof and needs no cookie (the SAML ACS: a signed response to a request this realm sent).
   */
  crossSitePost?: true;
  // Method syntax on purpose: it lets a typed endpoint be stored in the untyped catalog.
  handler(input: HandlerInput<B, Q, P>): Promise<HandlerResult<S>>;
} & PermissionCheck;

/**
 * The permission the caller needs, in the App context of the check (spec 5.7.2): the main app's
 * catalog by default, the control plane's when `app` says so. Only catalog names type-check.
 */
export type PermissionCheck =
  { app?: typeof MAIN_APP_SLUG; permission?: MainAppPermission } | { app: typeof CONTROL_PLANE_APP_SLUG; permission?: ControlPlanePermission };

/**
 * The declaration keeps its exact input and result types; the catalog (route wrapper, OpenAPI
 * generator) stores them erased: any schemas, a handler that returns a body or a Response.
 */
export type AnyEndpoint = Omit<Endpoint<unknown, unknown, unknown>, 'response' | 'handler'> & {
  response?: z.ZodType;
  handler(input: HandlerInput<unknown, unknown, unknown>): Promise<unknown>;
};

export function defineEndpoint<B = undefined, Q = undefined, P = undefined, S extends ResponseSchema = undefined>(
  e: Endpoint<B, Q, P, S>,
): Endpoint<B, Q, P, S> {
  return e;
}
