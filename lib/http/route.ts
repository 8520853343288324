import { AppError, notFound } from '../errors/app-error';
import { requirePermission } from '../authz/require-permission';
import { domainContext } from '../domain/context';
import { appIdForHost } from '../domain/apps/request-app';
import { limitRequestRate } from '../domain/realm-settings/rate-limit';
import { resolveHost } from '../realm/resolve';
import { actorFromCookie } from './authenticate';
import { clientIp } from './client-ip';
import { assertSameOrigin } from './csrf';
import type { AnyEndpoint, Endpoint } from './endpoint';
import { parseInput, queryObject } from './parse-input';
import { readJsonBody } from './read-json';
import { jsonResponse, problemResponse } from './respond';

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * Turns an endpoint declaration into a Next route handler. The order of checks is fixed: hidden
 * surface (bare 404), CSRF, authentication (401), permission (403), rate limit (429), input (400).
 */
export function toRouteHandler<B, Q, P>(endpoint: Endpoint<B, Q, P>) {
  const e = endpoint as unknown as AnyEndpoint;
  return async (request: Request, next?: NextRouteContext): Promise<Response> => {
    try {
      const resolution = await resolveHost(request.headers.get('host'));
      if (resolution.kind !== 'realm') throw notFound();
      const realm = resolution.realm;
      if (e.controlPlaneOnly && !realm.isControlPlane) throw notFound();
      assertSameOrigin(request);

      const actor = e.auth === 'anonymous' ? ({ kind: 'anonymous' } as const) : await actorFromCookie(realm, request.headers.get('cookie'));
      const appId = appIdForHost(realm, request.headers.get('host')); // the realm record's map: no query
      const ctx = domainContext(realm, actor, { ip: clientIp(request.headers), userAgent: request.headers.get('user-agent') ?? undefined, appId });
      if (e.auth === 'user' && actor.kind !== 'user') throw new AppError('Auth.Unauthenticated');
      if (e.permission) await requirePermission(ctx, e.permission, e.app ?? 'gatehouse');
      if (e.rateLimit) await limitRequestRate(ctx, e.rateLimit);

      const params = e.params ? parseInput(e.params, (await next?.params) ?? {}, 'path') : undefined;
      const query = e.query ? parseInput(e.query, queryObject(new URL(request.url)), 'query') : undefined;
      let body: unknown;
      if (e.body) body = parseInput(e.body, (await readJsonBody(request, e.bodyLimit)) ?? {}, 'body');

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
