'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { api, ApiError } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { DeleteCard } from '@/components/ui/delete-card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { ActiveBadge } from '@/components/ui/status-badges';
import { oauthKeys, type ServiceAccount } from '../oauth-types';
import { CredentialsSection } from './credentials-section';
import { ServiceAccountForm } from './service-account-form';

const back = { href: '/console/service-accounts', label: 'Service accounts' };

export type ServiceAccountRights = { canWrite: boolean; canReadGroups: boolean; canReadScopes: boolean; canReadClients: boolean };

export function ServiceAccountDetail({ accountId, rights }: { accountId: string; rights: ServiceAccountRights }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: oauthKeys.serviceAccount(accountId),
    queryFn: ({ signal }) => api<ServiceAccount>(`/api/service-account/${encodeURIComponent(accountId)}`, { signal }),
  });
  const account = query.data;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={back} title="Service account not found" />
        <Alert tone="warning" title="This service account does not exist any more." />
      </>
    );
  }
  return (
    <>
      <PageHeader back={back} title={account?.Name ?? 'Service account'} description={account ? <ActiveBadge active={account.IsActive} /> : undefined} />
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {account ? (
          <div className="two-col">
            <div className="stack">
              <ServiceAccountForm account={account} canWrite={rights.canWrite} canReadGroups={rights.canReadGroups} onSaved={() => undefined} />
              {rights.canWrite ? (
                <DeleteCard
                  path={`/api/service-account/${encodeURIComponent(account.Id)}`}
                  what="service account"
                  name={account.Name}
                  explanation="Its credentials and their OAuth clients are deleted, and every token issued to them is revoked."
                  onDeleted={() => {
                    queryClient.removeQueries({ queryKey: oauthKeys.serviceAccount(account.Id) });
                    void queryClient.invalidateQueries({ queryKey: oauthKeys.serviceAccounts });
                    void queryClient.invalidateQueries({ queryKey: oauthKeys.clients });
                    router.push('/console/service-accounts');
                  }}
                />
              ) : null}
            </div>
            <CredentialsSection accountId={account.Id} canWrite={rights.canWrite} canReadScopes={rights.canReadScopes} canReadClients={rights.canReadClients} />
          </div>
        ) : null}
      </QueryState>
    </>
  );
}
