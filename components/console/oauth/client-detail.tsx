'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { api, ApiError } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { DeleteCard } from '@/components/ui/delete-card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { oauthKeys, type OAuthClient } from '../oauth-types';
import { ClientForm } from './client-form';
import { RegenerateSecret } from './regenerate-secret';

const back = { href: '/console/oauth/clients', label: 'OAuth clients' };

export function ClientDetail({ clientId, canWrite, canReadScopes }: { clientId: string; canWrite: boolean; canReadScopes: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: oauthKeys.client(clientId),
    queryFn: ({ signal }) => api<OAuthClient>(`/api/admin/oauth/clients/${encodeURIComponent(clientId)}`, { signal }),
  });
  const client = query.data;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={back} title="Client not found" />
        <Alert tone="warning" title="This OAuth client does not exist any more." />
      </>
    );
  }
  // Service-account clients are changed through their account; the API answers 409 otherwise.
  const managed = Boolean(client?.ServiceAccountId);
  return (
    <>
      <PageHeader
        back={back}
        title={client?.DisplayName ?? 'OAuth client'}
        description={client ? <span className="mono">{client.ClientId}</span> : undefined}
      />
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {client ? (
          <div className="two-col">
            <ClientForm client={client} canWrite={canWrite} canReadScopes={canReadScopes} onSaved={() => undefined} />
            <div className="stack">
              <section className="card" aria-labelledby="client-facts-heading">
                <div className="card-header">
                  <h2 id="client-facts-heading">Details</h2>
                </div>
                <div className="card-body">
                  <dl className="dl">
                    <dt>Type</dt>
                    <dd>{client.ClientType}</dd>
                    <dt>Origin</dt>
                    <dd>{managed ? 'Service-account credential' : client.IsDynamic ? 'Dynamic registration' : 'Console / API'}</dd>
                    <dt>Created</dt>
                    <dd>{formatDate(client.CreatedAt)}</dd>
                    {client.ClientType === 'Confidential' ? (
                      <>
                        <dt>Secret issued</dt>
                        <dd>{formatDate(client.SecretCreatedAt)}</dd>
                      </>
                    ) : null}
                  </dl>
                </div>
              </section>
              {canWrite && !managed && client.ClientType === 'Confidential' ? <RegenerateSecret client={client} /> : null}
              {canWrite && !managed ? (
                <DeleteCard
                  path={`/api/admin/oauth/clients/${encodeURIComponent(client.Id)}`}
                  what="client"
                  name={client.DisplayName}
                  explanation="Everything issued to it is revoked, and applications using it can no longer sign in."
                  onDeleted={() => {
                    queryClient.removeQueries({ queryKey: oauthKeys.client(client.Id) });
                    void queryClient.invalidateQueries({ queryKey: oauthKeys.clients });
                    router.push('/console/oauth/clients');
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
