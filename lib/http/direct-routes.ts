import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnyEndpoint, HttpMethod } from './endpoint';
import { webRequest, writeResponse } from './node-bridge';
import { routeHandlerOf, type RouteHandler } from './route';

// The JSON API served by server.ts itself, outside Next's app-route pipeline (issue 14: Next's
// router, app-route handling and web streams took two thirds of a sign-in's main-thread time).
// Each endpoint runs through the same toRouteHandler wrapper as its app/api route file, so the
// order of checks, the answers and the problems are the same; only the request's way in differs.
//
// The table mirrors Next's matching so that a request is served here only where Next would have
// called the same handler: a path template matches segment by segment, a static segment wins over
// a parameter at the same depth (Next's priority), and when the best-matching path has no
// endpoint for the method the request is left to Next (its 405, HEAD and OPTIONS answers stay
// Next's). catalog.test.ts checks that every endpoint here has its route file and the reverse.

type Pattern = {
  /** A literal segment, or null for a `{param}` segment. */
  segments: (string | null)[];
  names: string[];
  handlers: Map<HttpMethod, RouteHandler>;
};

export type DirectMatch = { handler: RouteHandler; params: Record<string, string> };

export type DirectRoutes = { match(method: string, pathname: string): DirectMatch | undefined };

function parse(template: string): Pick<Pattern, 'segments' | 'names'> {
  const segments: (string | null)[] = [];
  const names: string[] = [];
  for (const part of template.split('/').slice(1)) {
    const param = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
    if (param) names.push(param[1]);
    segments.push(param ? null : part);
  }
  return { segments, names };
}

/** -1 when `a` is the more specific of two templates matching the same path (static before parameter). */
function bySpecificity(a: Pattern, b: Pattern): number {
  for (let i = 0; i < a.segments.length; i++) {
    const sa = a.segments[i] !== null;
    const sb = b.segments[i] !== null;
    if (sa !== sb) return sa ? -1 : 1;
  }
  return 0;
}

export function directRoutes(endpoints: readonly AnyEndpoint[]): DirectRoutes {
  const byTemplate = new Map<string, Pattern>();
  for (const e of endpoints) {
    let pattern = byTemplate.get(e.path);
    if (!pattern) byTemplate.set(e.path, (pattern = { ...parse(e.path), handlers: new Map() }));
    if (pattern.handlers.has(e.method)) throw new Error(`two endpoints declare ${e.method} ${e.path}`);
    pattern.handlers.set(e.method, routeHandlerOf(e));
  }
  // Grouped by segment count, most specific first: the first template that matches is Next's choice.
  const byLength = new Map<number, Pattern[]>();
  for (const p of byTemplate.values()) {
    const list = byLength.get(p.segments.length) ?? [];
    list.push(p);
    byLength.set(p.segments.length, list);
  }
  for (const list of byLength.values()) list.sort(bySpecificity);

  return {
    match(method, pathname) {
      const parts = pathname.split('/').slice(1);
      const candidates = byLength.get(parts.length);
      if (!candidates) return undefined;
      for (const p of candidates) {
        const values: string[] = [];
        let matched = true;
        for (let i = 0; i < parts.length; i++) {
          const literal = p.segments[i];
          if (literal === null ? parts[i] === '' : parts[i] !== literal) {
            matched = false;
            break;
          }
          if (literal === null) values.push(parts[i]);
        }
        if (!matched) continue;
        const handler = p.handlers.get(method as HttpMethod);
        if (!handler) return undefined; // Next's answer for this path and method
        let params: Record<string, string>;
        try {
          params = Object.fromEntries(p.names.map((name, i) => [name, decodeURIComponent(values[i])]));
        } catch {
          return undefined; // not decodable: left to Next, as before
        }
        return { handler, params };
      }
      return undefined;
    },
  };
}

/** Serves one request through a matched endpoint's route handler. `origin` is the request's scheme and Host. */
export async function serveDirect(match: DirectMatch, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const response = await match.handler(webRequest(req, origin), { params: Promise.resolve(match.params) });
  await writeResponse(response, req, res);
}
