import { AppError, notFound } from '../errors/app-error';
import { requirePermission } from '../authz/require-permission';
import { domainContext } from '../realm/context';
import { appIdForHost } from '../domain/apps/request-app';
import { limitRequestRate } from '../domain/realm-settings/rate-limit';
import { resolveHost } from '../realm/resolve';
import { readSessionCookie } from '../auth/session-cookie';
import { actorFromCookie } from './authenticate';
import { authenticateBearer, isScopeOnlyBearer, presentationOf, presentedTokenFacts, trustedForwardedSource } from './bearer';
import { clientIp } from '../web/client-ip';
import { assertSameOrigin } from '../web/csrf';
import type { AnyEndpoint, Endpoint, ResponseSchema } from './endpoint';
import { parseInput, queryObject } from './parse-input';
import { readJsonBody } from './read-json';
import { jsonResponse, problemResponse } from './respond';

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

export type RouteHandler = (request: Request, next?: NextRouteContext) => Promise<Response>;

/**
 * Turns an endpoint declaration into a Next route handler. The order of checks is fixed: hidden
 * surface (bare 404), CSRF, authentication (401), permission (403), rate limit (429), input (400).
 */
export function toRouteHandler<B, Q, P, S extends ResponseSchema>(endpoint: Endpoint<B, Q, P, S>): RouteHandler {
  return routeHandlerOf(endpoint);
}

/** toRouteHandler for a declaration of the catalog, whose types are erased (server.ts serves them, direct-routes.ts). */
export function routeHandlerOf(e: AnyEndpoint): RouteHandler {
  return async (request, next) => {
    try {
      const resolution = await resolveHost(request.headers.get('host'));
      if (resolution.kind !== 'realm') throw notFound();
      const realm = resolution.realm;
      if (e.controlPlaneOnly && !realm.isControlPlane) throw notFound();
      if (e.shownWhen && !(await e.shownWhen(realm))) throw notFound();
      if (!e.crossSitePost) assertSameOrigin(request);

      // A route that admits bearer tokens (spec 5.2) uses one when it is sent (as Bearer, or as DPoP
      // with its proof); else the cookie.
      const presentation = presentationOf(request);
      const verified = e.bearer ? await presentedTokenFacts(realm, presentation) : undefined;
      const viaBearer = verified ? await authenticateBearer(realm, verified, e.bearer!) : undefined;
      const actor =
        viaBearer?.actor ?? (e.auth === 'anonymous' ? ({ kind: 'anonymous' } as const) : await actorFromCookie(realm, request.headers.get('cookie')));
      const appId = appIdForHost(realm, request.headers.get('host')); // the realm record's map: no query
      const ip = (await trustedForwardedSource(realm, presentation, request.headers, verified)) ?? clientIp(request.headers);
      const ctx = domainContext(realm, actor, { ip, userAgent: request.headers.get('user-agent') ?? undefined, appId });
      ctx.bearer = viaBearer?.bearer;
      ctx.presentedSessionToken = readSessionCookie(request.headers.get('cookie'));
      if (e.auth === 'user' && actor.kind !== 'user' && !viaBearer) throw new AppError('Auth.Unauthenticated');
      // App-bound invite scopes are checked by the operation itself (invite-codes/access.ts).
      if (e.permission && !isScopeOnlyBearer(ctx.bearer)) await requirePermission(ctx, e.permission, e.app ?? 'gatehouse');
      if (e.rateLimit) await limitRequestRate(ctx, e.rateLimit);

      const params = e.params ? parseInput(e.params, (await next?.params) ?? {}, 'path') : undefined;
      const query = e.query ? parseInput(e.query, queryObject(new URL(request.url)), 'query') : undefined;
      let body: unknown;
      if (e.body) body = parseInput(e.body, (await readJsonBody(request, e.bodyLimit, e.bodyFormat)) ?? {}, 'body');

      const headers = new Headers();
      const result = await e.handler({ ctx, body, query, params, request, headers });
      if (result instanceof Response) {
        headers.forEach((v, k) => result.headers.append(k, v));
        return result;
      }
      const status = e.status ?? 200;
      if (status === 204 || result === undefined) return new Response(null, { status, headers });
      const payload = e.response ? e.response.parse(result) : result;
      return jsonResponse(payload, status, headers);
    } catch (error) {
      return problemResponse(error, `${e.method} ${e.path}`);
    }
  };
}
