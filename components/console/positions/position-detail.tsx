'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { api, ApiError } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { DeleteCard } from '@/components/ui/delete-card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { ActiveBadge } from '@/components/ui/status-badges';
import { PositionForm } from './position-form';
import { positionKeys, type Position } from './types';

const back = { href: '/console/positions', label: 'Positions' };

export type PositionRights = { canWrite: boolean; canReadClients: boolean; canCreateTerminals: boolean };

export function PositionDetail({ positionId, rights }: { positionId: string; rights: PositionRights }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: positionKeys.one(positionId),
    queryFn: ({ signal }) => api<Position>(`/api/position/${encodeURIComponent(positionId)}`, { signal }),
    // Its terminals change from the OAuth client pages (created or deleted there): read afresh on every visit.
    refetchOnMount: 'always',
  });
  const position = query.data;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={back} title="Position not found" />
        <Alert tone="warning" title="This position does not exist any more." />
      </>
    );
  }
  const terminals = position?.TerminalClientIds ?? [];
  return (
    <>
      <PageHeader back={back} title={position?.Name ?? 'Position'} description={position ? <ActiveBadge active={position.IsActive} /> : undefined} />
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {position ? (
          <div className="two-col">
            <div className="stack">
              <PositionForm position={position} canWrite={rights.canWrite} onSaved={() => undefined} />
              {rights.canWrite ? (
                <DeleteCard
                  path={`/api/position/${encodeURIComponent(position.Id)}`}
                  what="position"
                  name={position.Name}
                  explanation={
                    terminals.length
                      ? 'It still has terminals: delete those OAuth clients first, or the position stays.'
                      : 'The position is removed. It has no terminals.'
                  }
                  onDeleted={() => {
                    queryClient.removeQueries({ queryKey: positionKeys.one(position.Id) });
                    void queryClient.invalidateQueries({ queryKey: positionKeys.all });
                    router.push('/console/positions');
                  }}
                />
              ) : null}
            </div>
            <section className="card" aria-label="Terminals">
              <div className="card-body stack-sm">
                <h2>Terminals</h2>
                <p className="muted small">OAuth clients that act at this position. Their tokens say so in the claim position_id.</p>
                {terminals.length ? (
                  <ul>
                    {terminals.map((clientId) => (
                      <li key={clientId} className="mono">
                        {rights.canReadClients ? <Link href={`/console/oauth/clients/${encodeURIComponent(clientId)}`}>{clientId}</Link> : clientId}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="empty">No terminals yet.</p>
                )}
                {rights.canCreateTerminals && position.IsActive ? (
                  <p>
                    <Link href={`/console/oauth/clients/new?position=${encodeURIComponent(position.Id)}`}>Create a terminal for this position</Link>
                  </p>
                ) : null}
              </div>
            </section>
          </div>
        ) : null}
      </QueryState>
    </>
  );
}
