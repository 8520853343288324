'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { api, ApiError, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DeleteCard } from '@/components/ui/delete-card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { refetchAfterWrite, useAllScopes } from '../oauth-queries';
import { oauthKeys, type OAuthApi, type OAuthScope } from '../oauth-types';
import { ApiForm } from './api-form';

type Access = { canWrite: boolean; canReadScopes: boolean; canWriteScopes: boolean };

export function ApiDetail({ apiId, access }: { apiId: string; access: Access }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: oauthKeys.api(apiId),
    queryFn: ({ signal }) => api<OAuthApi>(`/api/admin/oauth/apis/${encodeURIComponent(apiId)}`, { signal }),
  });
  const oauthApi = query.data;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={{ href: '/console/oauth/apis', label: 'OAuth APIs' }} title="API not found" />
        <Alert tone="warning" title="This API does not exist any more." />
      </>
    );
  }
  return (
    <>
      <PageHeader
        back={{ href: '/console/oauth/apis', label: 'OAuth APIs' }}
        title={oauthApi?.DisplayName || oauthApi?.Name || 'OAuth API'}
        description={oauthApi ? <span className="mono">{oauthApi.Audience}</span> : undefined}
      />
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {oauthApi ? (
          <div className="two-col">
            <ApiForm oauthApi={oauthApi} canWrite={access.canWrite} onSaved={() => undefined} />
            <div className="stack">
              {access.canReadScopes ? <ApiScopes oauthApi={oauthApi} canWriteScopes={access.canWriteScopes} /> : null}
              {access.canWrite && !oauthApi.IsBuiltIn ? (
                <DeleteCard
                  path={`/api/admin/oauth/apis/${encodeURIComponent(oauthApi.Id)}`}
                  what="API"
                  name={oauthApi.Name}
                  explanation="Only an API that no scope grants can be deleted; clients can no longer ask for tokens for its audience."
                  onDeleted={() => {
                    queryClient.removeQueries({ queryKey: oauthKeys.api(oauthApi.Id) });
                    void queryClient.invalidateQueries({ queryKey: oauthKeys.apis });
                    router.push('/console/oauth/apis');
                  }}
                />
              ) : null}
            </div>
          </div>
        ) : null}
      </QueryState>
    </>
  );
}

/** The scopes that grant this API's audience, and the one-click scope named after it. */
function ApiScopes({ oauthApi, canWriteScopes }: { oauthApi: OAuthApi; canWriteScopes: boolean }) {
  const queryClient = useQueryClient();
  const scopes = useAllScopes();
  const granting = (scopes.data?.items ?? []).filter((s) => s.Resources.includes(oauthApi.Audience));
  const implicitExists = (scopes.data?.items ?? []).some((s) => s.Name === oauthApi.Audience);
  const create = useMutation({
    mutationFn: () => api<OAuthScope>(`/api/admin/oauth/apis/${encodeURIComponent(oauthApi.Id)}/create-implicit-scope`, { method: 'POST' }),
    onSuccess: () => refetchAfterWrite(queryClient, oauthKeys.scopes),
  });
  return (
    <section className="card" aria-labelledby="api-scopes-heading">
      <div className="card-header">
        <h2 id="api-scopes-heading">Scopes</h2>
      </div>
      <div className="card-body stack-sm">
        <QueryState isPending={scopes.isPending} error={scopes.error} onRetry={() => scopes.refetch()}>
          {granting.length === 0 ? (
            <p className="muted">No scope grants this API yet.</p>
          ) : (
            <ul className="stack-sm" aria-label="Scopes granting this API">
              {granting.map((s) => (
                <li key={s.Id}>
                  <Link href={`/console/oauth/scopes/${encodeURIComponent(s.Id)}`} className="mono">
                    {s.Name}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
        {create.isError ? (
          <Alert tone="danger" title="The scope was not created.">
            {problemMessage(create.error)}
          </Alert>
        ) : null}
        {create.isSuccess ? <Alert tone="success" title={`Scope “${create.data.Name}” created.`} /> : null}
        {canWriteScopes && !implicitExists ? (
          <div className="stack-sm">
            <p className="muted small">
              The implicit scope is named after the audience (<span className="mono">{oauthApi.Audience}</span>) and grants exactly this API.
            </p>
            <div>
              <Button busy={create.isPending} busyLabel="Creating…" onClick={() => create.mutate()}>
                Create implicit scope
              </Button>
            </div>
          </div>
        ) : null}
      </div>
    </section>
  );
}
