'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { api, ApiError } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { DeleteCard } from '@/components/ui/delete-card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { keys } from '../directory-types';
import { AppForm, usePrimaryDomain } from './app-form';
import type { App } from './app-form-values';
import { appKeys } from './app-keys';

/** The address as a link on the scheme and port this console is served on. */
function useOrigin(host: string | undefined): string | null {
  const [origin, setOrigin] = useState<string | null>(null);
  useEffect(() => {
    setOrigin(host ? `${window.location.protocol}//${host}${window.location.port ? `:${window.location.port}` : ''}` : null);
  }, [host]);
  return origin;
}

export function AppDetail({ appId, canWrite }: { appId: string; canWrite: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: keys.app(appId), queryFn: ({ signal }) => api<App>(`/api/app/${encodeURIComponent(appId)}`, { signal }) });
  const primaryDomain = usePrimaryDomain();
  const app = query.data;
  const origin = useOrigin(app?.Host ?? undefined);
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={{ href: '/console/apps', label: 'Applications' }} title="Application not found" />
        <Alert tone="warning" title="This application does not exist any more." />
      </>
    );
  }
  return (
    <>
      <PageHeader
        back={{ href: '/console/apps', label: 'Applications' }}
        title={app?.DisplayName ?? 'Application'}
        description={
          app ? (
            <>
              <span className="mono">{app.Slug}</span>
              {origin ? (
                <>
                  {' · '}
                  <a href={`${origin}/login`} target="_blank" rel="noreferrer">
                    {app.Host}
                  </a>
                </>
              ) : null}
            </>
          ) : undefined
        }
      />
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {app ? (
          <div className="stack">
            <AppForm app={app} canWrite={canWrite} primaryDomain={primaryDomain} onSaved={() => undefined} />
            {canWrite && !app.IsBuiltIn ? (
              <DeleteCard
                path={`/api/app/${encodeURIComponent(app.Id)}`}
                what="application"
                name={app.DisplayName}
                explanation="Its address stops working and its spent invite codes are removed. An application that roles, OAuth APIs, OAuth clients or active invite codes still use cannot be deleted."
                onDeleted={() => {
                  queryClient.removeQueries({ queryKey: keys.app(app.Id) });
                  void queryClient.invalidateQueries({ queryKey: appKeys.all });
                  router.push('/console/apps');
                }}
              />
            ) : null}
          </div>
        ) : null}
      </QueryState>
    </>
  );
}
