'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SecretOnce } from '../secret-once';
import { oauthKeys, type OAuthClient, type RegeneratedSecret } from '../oauth-types';

/**
 * Replaces a confidential client's secret. The new one is answered once, so it replaces this card
 * until the administrator says it is stored (the card, and the dialog with it, unmount: focus goes
 * to the secret's warning rather than back to a button that no longer exists).
 */
export function RegenerateSecret({ client }: { client: OAuthClient }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [issued, setIssued] = useState<RegeneratedSecret | null>(null);
  const regenerate = useMutation({
    mutationFn: () => api<RegeneratedSecret>(`/api/admin/oauth/clients/${encodeURIComponent(client.Id)}/regenerate-secret`, { method: 'POST' }),
    onSuccess: (r) => {
      setOpen(false);
      setIssued(r);
      void queryClient.invalidateQueries({ queryKey: oauthKeys.client(client.Id) });
    },
  });
  if (issued) {
    return (
      <SecretOnce
        title="New secret issued. Copy it now"
        clientId={issued.ClientId}
        secret={issued.ClientSecret}
        actions={<Button onClick={() => setIssued(null)}>I have stored the secret</Button>}
      >
        <p className="muted small">The old secret no longer works. Tokens issued before stay valid until they expire.</p>
      </SecretOnce>
    );
  }
  return (
    <section className="card" aria-label="Client secret">
      <div className="card-body row-between">
        <div className="stack-sm">
          <h2>Client secret</h2>
          <p className="muted small">Issue a new secret when the old one may have leaked. It is shown once.</p>
        </div>
        <Button onClick={() => setOpen(true)}>Regenerate secret…</Button>
      </div>
      <ConfirmDialog
        open={open}
        onClose={() => {
          setOpen(false);
          regenerate.reset();
        }}
        title={`Regenerate the secret of “${client.DisplayName}”?`}
        confirmLabel="Regenerate secret"
        busyLabel="Regenerating…"
        busy={regenerate.isPending}
        error={regenerate.isError ? problemMessage(regenerate.error) : null}
        onConfirm={() => regenerate.mutate()}
        tone="primary"
      >
        <p>The current secret stops working at once; every application using it needs the new one.</p>
      </ConfirmDialog>
    </section>
  );
}
