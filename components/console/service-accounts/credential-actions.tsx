'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { refetchAfterWrite } from '../oauth-queries';
import { oauthKeys, type Credential, type IssuedCredential } from '../oauth-types';
import { EditCredential } from './edit-credential';

/** Edit, rotate and delete for one credential row; rotate and delete behind a confirmation. */
export function CredentialActions({
  credential,
  canReadScopes,
  onRotated,
  onDeleted,
}: {
  credential: Credential;
  canReadScopes: boolean;
  onRotated: (c: IssuedCredential) => void;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'edit' | 'rotate' | 'delete' | null>(null);
  const base = `/api/service-account/${encodeURIComponent(credential.ServiceAccountId)}/credentials/${encodeURIComponent(credential.Id)}`;
  const refresh = () => {
    void refetchAfterWrite(queryClient, oauthKeys.credentials(credential.ServiceAccountId));
    void refetchAfterWrite(queryClient, oauthKeys.serviceAccount(credential.ServiceAccountId));
    void queryClient.invalidateQueries({ queryKey: oauthKeys.clients });
  };
  const rotate = useMutation({
    mutationFn: () => api<IssuedCredential>(`${base}/rotate`, { method: 'POST' }),
    onSuccess: (c) => {
      setDialog(null);
      refresh();
      onRotated(c);
    },
  });
  const remove = useMutation({
    mutationFn: () => api(base, { method: 'DELETE' }),
    onSuccess: () => {
      setDialog(null);
      refresh();
      onDeleted();
    },
  });
  const close = () => {
    setDialog(null);
    rotate.reset();
    remove.reset();
  };
  return (
    <span className="row">
      <Button size="sm" onClick={() => setDialog('edit')} aria-label={`Edit ${credential.DisplayName}`}>
        Edit…
      </Button>
      <EditCredential credential={credential} canReadScopes={canReadScopes} open={dialog === 'edit'} onClose={() => setDialog(null)} />
      <Button size="sm" onClick={() => setDialog('rotate')} aria-label={`Rotate the secret of ${credential.DisplayName}`}>
        Rotate…
      </Button>
      <Button size="sm" variant="danger" onClick={() => setDialog('delete')} aria-label={`Delete ${credential.DisplayName}`}>
        Delete…
      </Button>
      <ConfirmDialog
        open={dialog === 'rotate'}
        onClose={close}
        title={`Rotate the secret of “${credential.DisplayName}”?`}
        confirmLabel="Rotate secret"
        busyLabel="Rotating…"
        busy={rotate.isPending}
        error={rotate.isError ? problemMessage(rotate.error) : null}
        onConfirm={() => rotate.mutate()}
        tone="primary"
      >
        <p>The old secret and the tokens issued with it stop working at once. The new secret is shown once.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'delete'}
        onClose={close}
        title={`Delete credential “${credential.DisplayName}”?`}
        confirmLabel="Delete credential"
        busyLabel="Deleting…"
        busy={remove.isPending}
        error={remove.isError ? problemMessage(remove.error) : null}
        onConfirm={() => remove.mutate()}
      >
        <p>Its OAuth client is deleted and every token issued to it is revoked.</p>
      </ConfirmDialog>
    </span>
  );
}
