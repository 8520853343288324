'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { api, ApiError } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { DeleteCard } from '@/components/ui/delete-card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { ActiveBadge } from '@/components/ui/status-badges';
import { ProviderEndpoints } from './provider-endpoints';
import { ProviderForm } from './provider-form';
import { ProviderSecret } from './provider-secret';
import { canTestConnection, FLAVOR_LABELS, providerKeys, type FlavorInfo, type LoginProvider } from './provider-types';
import { TestConnection } from './test-connection';

const back = { href: '/console/login-providers', label: 'Login providers' };

/** A login provider: its settings, what to give the upstream, its secret, a connection test, delete. */
export function ProviderDetail({
  providerId,
  created,
  canWrite,
  canReadGroups,
}: {
  providerId: string;
  created: boolean;
  canWrite: boolean;
  canReadGroups: boolean;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: providerKeys.one(providerId),
    queryFn: ({ signal }) => api<LoginProvider>(`/api/admin/login-providers/${encodeURIComponent(providerId)}`, { signal }),
  });
  const flavors = useQuery({ queryKey: providerKeys.flavors, queryFn: ({ signal }) => api<FlavorInfo[]>('/api/admin/login-providers/flavors', { signal }) });
  const p = query.data;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={back} title="Provider not found" />
        <Alert tone="warning" title="This login provider does not exist any more." />
      </>
    );
  }
  const flavor = p && p.Flavor !== 'Internal' ? p.Flavor : null;
  const secretField = flavors.data?.find((f) => f.Flavor === flavor)?.SecretField;
  return (
    <>
      <PageHeader
        back={back}
        title={p?.Name ?? 'Login provider'}
        description={
          p ? (
            <span className="row">
              {FLAVOR_LABELS[p.Flavor]}
              <ActiveBadge active={p.IsActive} />
            </span>
          ) : undefined
        }
      />
      {created ? (
        <Alert tone="success" title="Login provider created.">
          {secretField ? <p>Set its secret to finish the set-up.</p> : null}
        </Alert>
      ) : null}
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {p && !flavor ? (
          <Alert title="Built in">
            <p>
              This provider stands for the realm’s own accounts (passwords, passkeys, e-mailed codes). It cannot be changed or deleted; the realm settings
              decide which of these methods are offered.
            </p>
          </Alert>
        ) : null}
        {p && flavor ? (
          <div className="two-col">
            <ProviderForm flavor={flavor} provider={p} canWrite={canWrite} canReadGroups={canReadGroups} onSaved={() => undefined} />
            <div className="stack">
              <ProviderEndpoints provider={p} />
              {canWrite && secretField ? <ProviderSecret provider={p} field={secretField} /> : null}
              {!canWrite && secretField ? (
                <p className="muted small" data-testid="secret-state">
                  Secret: {p.HasSecret ? 'set' : 'not set'}
                </p>
              ) : null}
              {canWrite && canTestConnection(p.Flavor) ? <TestConnection provider={p} /> : null}
              <section className="card" aria-labelledby="provider-facts-heading">
                <div className="card-header">
                  <h2 id="provider-facts-heading">Details</h2>
                </div>
                <div className="card-body">
                  <dl className="dl">
                    <dt>Flavor</dt>
                    <dd>{p.Flavor}</dd>
                    <dt>Created</dt>
                    <dd>{formatDate(p.CreatedAt)}</dd>
                    <dt>Changed</dt>
                    <dd>{formatDate(p.UpdatedAt)}</dd>
                    <dt>Id</dt>
                    <dd className="mono small">{p.Id}</dd>
                  </dl>
                </div>
              </section>
              {canWrite ? (
                <DeleteCard
                  path={`/api/admin/login-providers/${encodeURIComponent(p.Id)}`}
                  what="login provider"
                  name={p.Name}
                  explanation="People can no longer sign in through it, and every account linked through it is unlinked."
                  onDeleted={() => {
                    queryClient.removeQueries({ queryKey: providerKeys.one(p.Id) });
                    void queryClient.invalidateQueries({ queryKey: providerKeys.all });
                    router.push('/console/login-providers');
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
