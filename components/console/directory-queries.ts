'use client';
import { useQuery } from '@tanstack/react-query';
import { api, type ListPage } from '@/components/data/api';
import { keys, type AppLookup, type Group, type Role } from './directory-types';

// Reads shared by several console screens (pickers): every group, every role, the applications.
// Lists are capped at 200 per page by the API; a realm with more uses the search of the list pages.

export function useAllGroups(enabled = true) {
  return useQuery({
    queryKey: keys.allGroups,
    queryFn: ({ signal }) => api<ListPage<Group>>('/api/group?pageSize=200&sortBy=name', { signal }),
    enabled,
  });
}

export function useAllRoles(enabled = true) {
  return useQuery({
    queryKey: keys.allRoles,
    queryFn: ({ signal }) => api<ListPage<Role>>('/api/role?pageSize=200&sortBy=name', { signal }),
    enabled,
  });
}

export function useAppLookup() {
  return useQuery({ queryKey: keys.appLookup, queryFn: ({ signal }) => api<AppLookup[]>('/api/app/lookup', { signal }), staleTime: 60_000 });
}
