'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { api, ApiError } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { DeleteCard } from '@/components/ui/delete-card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { oauthKeys, type OAuthScope } from '../oauth-types';
import { ScopeForm } from './scope-form';

export function ScopeDetail({ scopeId, canWrite }: { scopeId: string; canWrite: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: oauthKeys.scope(scopeId),
    queryFn: ({ signal }) => api<OAuthScope>(`/api/admin/oauth/scopes/${encodeURIComponent(scopeId)}`, { signal }),
  });
  const scope = query.data;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={{ href: '/console/oauth/scopes', label: 'OAuth scopes' }} title="Scope not found" />
        <Alert tone="warning" title="This scope does not exist any more." />
      </>
    );
  }
  return (
    <>
      <PageHeader
        back={{ href: '/console/oauth/scopes', label: 'OAuth scopes' }}
        title={scope?.Name ?? 'OAuth scope'}
        description={scope?.DisplayName ?? undefined}
      />
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {scope ? (
          <div className="two-col">
            <ScopeForm scope={scope} canWrite={canWrite} onSaved={() => undefined} />
            {canWrite && !scope.IsBuiltIn ? (
              <div className="stack">
                <DeleteCard
                  path={`/api/admin/oauth/scopes/${encodeURIComponent(scope.Id)}`}
                  what="scope"
                  name={scope.Name}
                  explanation="Only a scope that no client lists can be deleted; remove it from the clients first."
                  onDeleted={() => {
                    queryClient.removeQueries({ queryKey: oauthKeys.scope(scope.Id) });
                    void queryClient.invalidateQueries({ queryKey: oauthKeys.scopes });
                    router.push('/console/oauth/scopes');
                  }}
                />
              </div>
            ) : null}
          </div>
        ) : null}
      </QueryState>
    </>
  );
}
