import { normalizeHost } from '../../../realm/host';

// Pure: the host-to-App routes a realm's Apps ask for, and how they differ from the stored ones.

export type WantedRoute = { appId: string; subdomain: string | null };
export type RouteChange =
  | { kind: 'missing'; host: string; appId: string }
  | { kind: 'extra'; host: string; appId: string }
  | { kind: 'wrong'; host: string; appId: string; wantedAppId: string }
  | { kind: 'foreign'; host: string; appId: string };

/** Host -> App for every App with a subdomain; two Apps asking for one host are reported, the first (by id) kept. */
export function planRoutes(wanted: readonly WantedRoute[], primaryDomain: string): { routes: Map<string, string>; clashes: string[] } {
  const routes = new Map<string, string>();
  const clashes: string[] = [];
  for (const w of [...wanted].sort((a, b) => a.appId.localeCompare(b.appId))) {
    if (!w.subdomain) continue;
    const host = normalizeHost(`${w.subdomain}.${primaryDomain}`);
    if (!host) continue;
    const taken = routes.get(host);
    if (taken) clashes.push(`Applications ${taken} and ${w.appId} both ask for host ${host}; only the first routes there.`);
    else routes.set(host, w.appId);
  }
  return { routes, clashes };
}

/** What to change so that `current` becomes `wanted`, leaving alone hosts held by another realm. */
export function routeDifferences(wanted: Map<string, string>, current: Map<string, string>, foreignHosts: ReadonlySet<string>): RouteChange[] {
  const out: RouteChange[] = [];
  for (const [host, appId] of wanted) {
    const now = current.get(host);
    if (foreignHosts.has(host)) out.push({ kind: 'foreign', host, appId });
    else if (now === undefined) out.push({ kind: 'missing', host, appId });
    else if (now !== appId) out.push({ kind: 'wrong', host, appId: now, wantedAppId: appId });
  }
  for (const [host, appId] of current) if (!wanted.has(host)) out.push({ kind: 'extra', host, appId });
  return out.sort((a, b) => a.host.localeCompare(b.host));
}
