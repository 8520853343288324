'use client';
import { useQuery, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { api, type ListPage } from '@/components/data/api';
import { oauthKeys, type OAuthApi, type OAuthScope } from './oauth-types';

/** Every scope of the realm, for the scope pickers (the API caps a page at 200). */
export function useAllScopes(enabled = true) {
  return useQuery({
    queryKey: oauthKeys.allScopes,
    queryFn: ({ signal }) => api<ListPage<OAuthScope>>('/api/admin/oauth/scopes?pageSize=200&sortBy=name', { signal }),
    enabled,
    staleTime: 60_000,
  });
}

/** Every OAuth API of the realm, for the scope form's resources (the API caps a page at 200). */
export function useAllApis(enabled = true) {
  return useQuery({
    queryKey: oauthKeys.allApis,
    queryFn: ({ signal }) => api<ListPage<OAuthApi>>('/api/admin/oauth/apis?pageSize=200&sortBy=name', { signal }),
    enabled,
    staleTime: 60_000,
  });
}

/** Checkbox options for scope names; names chosen before but gone from the list stay removable. */
export function scopeOptions(scopes: OAuthScope[] | undefined, chosen: readonly string[] = []) {
  const known = new Set((scopes ?? []).map((s) => s.Name));
  return [
    ...(scopes ?? []).map((s) => ({ value: s.Name, label: <span className="mono">{s.Name}</span>, hint: s.DisplayName ?? s.Description })),
    ...chosen.filter((n) => scopes && !known.has(n)).map((n) => ({ value: n, label: <span className="mono">{n}</span>, hint: 'This scope no longer exists.' })),
  ];
}

/**
 * Reads `key` afresh after a write. A first read still in flight would otherwise be reused by
 * invalidateQueries (TanStack dedupes a fetch that has no data yet) and answer what it saw before
 * the write; cancelling it first forces a new request.
 */
export async function refetchAfterWrite(queryClient: QueryClient, key: QueryKey): Promise<void> {
  await queryClient.cancelQueries({ queryKey: key });
  await queryClient.invalidateQueries({ queryKey: key });
}
