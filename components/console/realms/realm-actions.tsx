'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { realmKeys, type Realm } from './types';

type Dialog = 'deactivate' | 'soft-delete' | 'hard-delete' | 'transfer' | null;

/** Status and the consequential operations on a realm (spec 3.1, 3.2). */
export function RealmActions({ realm, canWrite, canTransfer }: { realm: Realm; canWrite: boolean; canTransfer: boolean }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [open, setOpen] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const path = `/api/admin/realms/${encodeURIComponent(realm.Slug)}`;
  const refresh = (updated?: Realm) => {
    if (updated) queryClient.setQueryData(realmKeys.one(realm.Slug), updated);
    void queryClient.invalidateQueries({ queryKey: realmKeys.all });
  };

  const setActive = useMutation({
    mutationFn: (IsActive: boolean) => api<Realm>(path, { method: 'PATCH', body: { IsActive } }),
    onSuccess: (updated) => {
      refresh(updated);
      setOpen(null);
      setNotice(updated.IsActive ? 'The realm is active again.' : 'The realm is switched off. Its data is kept; activate it to bring it back.');
    },
  });
  const remove = useMutation({
    mutationFn: (hard: boolean) => api(`${path}${hard ? '?hard=true' : ''}`, { method: 'DELETE' }),
    onSuccess: (_data, hard) => {
      setOpen(null);
      if (hard) {
        queryClient.removeQueries({ queryKey: realmKeys.one(realm.Slug) });
        void queryClient.invalidateQueries({ queryKey: realmKeys.all });
        router.push('/console/realms');
      } else {
        refresh();
        void queryClient.invalidateQueries({ queryKey: realmKeys.one(realm.Slug) });
        setNotice('The realm was deleted and switched off. Its data is kept; activate it to bring it back.');
      }
    },
  });
  const transfer = useMutation({
    mutationFn: () => api<Realm>(`${path}/transfer-control-plane`, { method: 'POST', body: {} }),
    // This host is no longer the control plane: realm management is gone from here.
    onSuccess: () => window.location.assign('/console'),
  });

  const pendingError = (m: { error: unknown; isError: boolean }) => (m.isError ? problemMessage(m.error) : null);
  const close = () => {
    setOpen(null);
    setActive.reset();
    remove.reset();
    transfer.reset();
  };

  return (
    <>
      <section className="card" aria-labelledby="status-heading">
        <div className="card-header">
          <h2 id="status-heading">Status</h2>
          <span className="row">
            {realm.IsActive ? <span className="badge badge-success">Active</span> : <span className="badge badge-danger">Inactive</span>}
            {realm.IsControlPlane ? <span className="badge badge-brand badge-plain">Control plane</span> : null}
          </span>
        </div>
        <div className="card-body stack">
          {notice ? <Alert tone="success" title={notice} /> : null}
          {realm.IsControlPlane ? (
            <p className="muted">
              This realm is the control plane. It cannot be deactivated or deleted; transfer the control-plane role to another realm first.
            </p>
          ) : realm.IsActive ? (
            <p className="muted">
              Deactivating switches the realm off: nobody can sign in and its addresses stop answering. All its data is kept, and you can activate it again at
              any time.
            </p>
          ) : (
            <p className="muted">This realm is inactive: nobody can sign in and its addresses do not answer. Its data is kept until you activate it again.</p>
          )}
          {canWrite && !realm.IsControlPlane ? (
            <div className="form-actions">
              {realm.IsActive ? (
                <Button onClick={() => setOpen('deactivate')}>Deactivate…</Button>
              ) : (
                <Button variant="primary" busy={setActive.isPending} busyLabel="Activating…" onClick={() => setActive.mutate(true)}>
                  Activate
                </Button>
              )}
              {canTransfer && realm.IsActive ? <Button onClick={() => setOpen('transfer')}>Make this the control plane…</Button> : null}
            </div>
          ) : null}
          {setActive.isError && !open ? <Alert tone="danger" title={problemMessage(setActive.error)} /> : null}
        </div>
      </section>

      {canWrite && !realm.IsControlPlane ? (
        <section className="card card-danger" aria-labelledby="danger-heading">
          <div className="card-header">
            <h2 id="danger-heading">Delete the realm</h2>
          </div>
          <div className="card-body stack">
            <ul className="stack-sm muted">
              <li>
                <strong>Delete</strong> removes the realm from use but keeps its data, like deactivating: it can be activated again.
              </li>
              <li>
                <strong>Delete permanently</strong> erases the realm’s database with all its users, groups, applications and logs. This cannot be undone.
              </li>
            </ul>
            <div className="form-actions">
              <Button variant="secondary" onClick={() => setOpen('soft-delete')} disabled={!realm.IsActive}>
                Delete…
              </Button>
              <Button variant="danger" onClick={() => setOpen('hard-delete')}>
                Delete permanently…
              </Button>
            </div>
          </div>
        </section>
      ) : null}

      <ConfirmDialog
        open={open === 'deactivate'}
        onClose={close}
        title={`Deactivate ${realm.DisplayName}?`}
        confirmLabel="Deactivate"
        busyLabel="Deactivating…"
        busy={setActive.isPending}
        error={pendingError(setActive)}
        onConfirm={() => setActive.mutate(false)}
      >
        <p>Nobody can sign in to this realm and its applications stop working until you activate it again. No data is removed.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={open === 'soft-delete'}
        onClose={close}
        title={`Delete ${realm.DisplayName}?`}
        confirmLabel="Delete"
        busyLabel="Deleting…"
        busy={remove.isPending}
        error={pendingError(remove)}
        onConfirm={() => remove.mutate(false)}
      >
        <p>
          The realm is switched off and nobody can sign in. Its data is kept, so you can activate it again later. To erase it for good, use “Delete
          permanently”.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={open === 'hard-delete'}
        onClose={close}
        title={`Permanently delete ${realm.DisplayName}?`}
        confirmLabel="Delete permanently"
        busyLabel="Deleting…"
        busy={remove.isPending}
        error={pendingError(remove)}
        typeToConfirm={realm.Slug}
        onConfirm={() => remove.mutate(true)}
      >
        <Alert tone="danger" title="This cannot be undone.">
          <p>The realm’s database is dropped with all its users, groups, applications and logs, and its domains are released.</p>
        </Alert>
      </ConfirmDialog>
      <ConfirmDialog
        open={open === 'transfer'}
        onClose={close}
        tone="primary"
        title={`Make ${realm.DisplayName} the control plane?`}
        confirmLabel="Transfer the control plane"
        busyLabel="Transferring…"
        busy={transfer.isPending}
        error={pendingError(transfer)}
        typeToConfirm={realm.Slug}
        onConfirm={() => transfer.mutate()}
      >
        <p>
          Realm management moves to <strong>{realm.PrimaryDomain}</strong>. This realm’s <code>realm:admin</code> users gain cross-realm administration, and
          this console loses realm management.
        </p>
      </ConfirmDialog>
    </>
  );
}
