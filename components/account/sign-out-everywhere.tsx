'use client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

/**
 * DELETE /api/auth/sessions after confirmation: every browser (this one too) and every application.
 * The server clears this browser's cookie, so the page goes where the normal sign-out goes.
 */
export function SignOutEverywhere() {
  const [open, setOpen] = useState(false);
  const everywhere = useMutation({
    mutationFn: () => api('/api/auth/sessions', { method: 'DELETE' }),
    onSuccess: () => window.location.assign('/logged-out'),
  });
  return (
    <div className="stack-sm">
      <h3>Sign out everywhere</h3>
      <p className="muted small">Ends every session of your account, on this browser too, and removes every application’s access.</p>
      <div>
        <Button
          variant="danger"
          onClick={() => {
            everywhere.reset();
            setOpen(true);
          }}
        >
          Sign out everywhere…
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        onConfirm={() => everywhere.mutate()}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        busyLabel="Signing out…"
        // Stays busy after success: the page is on its way to the signed-out page.
        busy={everywhere.isPending || everywhere.isSuccess}
        error={everywhere.isError ? problemMessage(everywhere.error) : null}
      >
        <p>You will be signed out of every browser, including this one, and every connected application will have to sign you in again.</p>
      </ConfirmDialog>
    </div>
  );
}
