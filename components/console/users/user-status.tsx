'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ActiveBadge } from '@/components/ui/status-badges';
import { keys, type User } from '../directory-types';

/** Activate, deactivate, delete (soft) and restore a user (spec 3.5, 4.7). */
export function UserStatus({ user, canWrite, isSelf }: { user: User; canWrite: boolean; isSelf: boolean }) {
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<'deactivate' | 'delete' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const base = `/api/user/${encodeURIComponent(user.Id)}`;
  const refresh = (updated?: User) => {
    if (updated) queryClient.setQueryData(keys.user(user.Id), updated);
    else void queryClient.invalidateQueries({ queryKey: keys.user(user.Id) });
    void queryClient.invalidateQueries({ queryKey: keys.users });
  };
  const setActive = useMutation({
    mutationFn: (IsActive: boolean) => api<User>(`${base}/active`, { method: 'PUT', body: { IsActive } }),
    onSuccess: (u) => {
      refresh(u);
      setConfirm(null);
      setNotice(u.IsActive ? 'The user can sign in again.' : 'The user is deactivated and was signed out.');
    },
  });
  const remove = useMutation({
    mutationFn: () => api(base, { method: 'DELETE' }),
    onSuccess: () => {
      refresh();
      setConfirm(null);
      setNotice('The user was deleted. You can restore them.');
    },
  });
  const restore = useMutation({
    mutationFn: () => api<User>(`${base}/restore`, { method: 'POST', body: {} }),
    onSuccess: (u) => {
      refresh(u);
      setNotice('The user was restored.');
    },
  });
  const close = () => {
    setConfirm(null);
    setActive.reset();
    remove.reset();
  };
  const failure = [setActive, remove, restore].find((m) => m.isError);

  return (
    <section className="card" aria-labelledby="status-heading">
      <div className="card-header">
        <h2 id="status-heading">Status</h2>
        <ActiveBadge active={user.IsActive} deleted={user.IsDeleted} />
      </div>
      <div className="card-body stack">
        {notice ? <Alert tone="success" title={notice} /> : null}
        {failure && !confirm ? <Alert tone="danger" title={problemMessage(failure.error)} /> : null}
        {isSelf ? <p className="muted small">This is your own account: you cannot deactivate or delete it here.</p> : null}
        {canWrite && !isSelf ? (
          <div className="form-actions">
            {user.IsDeleted ? (
              <Button variant="primary" busy={restore.isPending} busyLabel="Restoring…" onClick={() => restore.mutate()}>
                Restore user
              </Button>
            ) : (
              <>
                {user.IsActive ? (
                  <Button onClick={() => setConfirm('deactivate')}>Deactivate</Button>
                ) : (
                  <Button variant="primary" busy={setActive.isPending} busyLabel="Activating…" onClick={() => setActive.mutate(true)}>
                    Activate
                  </Button>
                )}
                <Button variant="danger" onClick={() => setConfirm('delete')}>
                  Delete…
                </Button>
              </>
            )}
          </div>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirm === 'deactivate'}
        onClose={close}
        title={`Deactivate ${user.DisplayName}?`}
        confirmLabel="Deactivate"
        busyLabel="Deactivating…"
        busy={setActive.isPending}
        error={setActive.isError ? problemMessage(setActive.error) : null}
        onConfirm={() => setActive.mutate(false)}
      >
        <p>They are signed out everywhere and cannot sign in until activated again.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'delete'}
        onClose={close}
        title={`Delete ${user.DisplayName}?`}
        confirmLabel="Delete user"
        busyLabel="Deleting…"
        busy={remove.isPending}
        error={remove.isError ? problemMessage(remove.error) : null}
        onConfirm={() => remove.mutate()}
      >
        <p>The user is signed out and hidden from lists. Their data is kept, and they can be restored from the “Deleted” view.</p>
      </ConfirmDialog>
    </section>
  );
}
