import { parseStringList } from '../db/json-list';
import type { RealmDb } from '../db/types';

// What the engine's configuration takes from the realm's tables: its scopes and its APIs (resource
// servers) with the scopes that grant access to each. Read when a realm's provider is built; any
// scope or API change rebuilds it (provider-cache.ts).
export type ResourceServer = { audience: string; scopes: string[] };
export type RealmOAuthConfig = { scopes: string[]; resourceServers: Map<string, ResourceServer> };

export async function loadRealmOAuthConfig(db: RealmDb): Promise<RealmOAuthConfig> {
  const [scopes, apis] = await Promise.all([
    db.oAuthScope.findMany({ select: { name: true, resources: true }, orderBy: { name: 'asc' } }),
    db.oAuthApi.findMany({ select: { audience: true } }),
  ]);
  const resourceServers = new Map<string, ResourceServer>(apis.map((a) => [a.audience, { audience: a.audience, scopes: [] }]));
  for (const scope of scopes) for (const audience of parseStringList(scope.resources)) resourceServers.get(audience)?.scopes.push(scope.name);
  return { scopes: scopes.map((s) => s.name), resourceServers };
}
