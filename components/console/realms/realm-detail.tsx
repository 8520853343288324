'use client';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/components/data/api';
import { CopyField } from '@/components/ui/copy-button';
import { originOf, type PublicBase } from '@/lib/web/public-origin';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { AdminInviteForm } from './admin-invite-form';
import { RealmActions } from './realm-actions';
import { RealmConsoleCard } from './realm-console-card';
import { RealmDetailsForm } from './realm-details-form';
import { realmKeys, type Realm } from './types';

/** `publicBase`: the scheme and port of the public URLs (the server's settings), for the sign-in address. */
export function RealmDetail({
  initial,
  publicBase,
  canWrite,
  canTransfer,
}: {
  initial: Realm;
  publicBase: PublicBase;
  canWrite: boolean;
  canTransfer: boolean;
}) {
  const query = useQuery({
    queryKey: realmKeys.one(initial.Slug),
    queryFn: ({ signal }) => api<Realm>(`/api/admin/realms/${encodeURIComponent(initial.Slug)}`, { signal }),
    initialData: initial,
  });
  const realm = query.data;
  return (
    <>
      <PageHeader back={{ href: '/console/realms', label: 'Realms' }} title={realm.DisplayName} description={<span className="mono">{realm.Slug}</span>} />
      <QueryState isPending={false} error={query.error} onRetry={() => query.refetch()}>
        <div className="two-col">
          <div className="stack">
            <RealmDetailsForm realm={realm} canWrite={canWrite} />
            <section className="card" aria-labelledby="facts-heading">
              <div className="card-header">
                <h2 id="facts-heading">Facts</h2>
              </div>
              <div className="card-body stack">
                <dl className="dl">
                  <dt>Id</dt>
                  <dd className="mono small">{realm.Id}</dd>
                  <dt>Created</dt>
                  <dd>{formatDate(realm.CreatedAt)}</dd>
                  <dt>Updated</dt>
                  <dd>{formatDate(realm.UpdatedAt)}</dd>
                </dl>
                <CopyField label="Sign-in page" value={`${originOf(publicBase, realm.PrimaryDomain)}/login`} />
              </div>
            </section>
          </div>
          <div className="stack">
            <RealmActions realm={realm} canWrite={canWrite} canTransfer={canTransfer} />
            <RealmConsoleCard realm={realm} publicBase={publicBase} />
            {canWrite && realm.IsActive ? <AdminInviteForm slug={realm.Slug} /> : null}
          </div>
        </div>
      </QueryState>
    </>
  );
}
