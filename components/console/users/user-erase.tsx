'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { eraseUserBodySchema } from '@/lib/domain/privacy/schemas';
import { keys, type User } from '../directory-types';

/**
 * Permanent erasure (spec 4.6, 4.7; gdpr:admin): nothing about the person is kept, only the reason
 * in the security log. It cannot be undone, so the user name must be typed to confirm.
 */
export function UserErase({ user }: { user: User }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const erase = useMutation({
    mutationFn: (Reason: string) => api(`/api/admin/users/${encodeURIComponent(user.Id)}/permanent`, { method: 'DELETE', body: { Reason } }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: keys.user(user.Id) });
      void queryClient.invalidateQueries({ queryKey: keys.users });
      router.push('/console/users');
    },
  });
  const confirm = () => {
    const checked = eraseUserBodySchema.shape.Reason.safeParse(reason);
    if (!checked.success) {
      setReasonError(checked.error.issues[0]?.message ?? 'Give the reason for the erasure.');
      return;
    }
    setReasonError(null);
    erase.mutate(checked.data);
  };
  return (
    <section className="card card-danger" aria-label="Erase user permanently">
      <div className="card-body row-between">
        <div className="stack-sm">
          <h2>Erase permanently</h2>
          <p className="muted small">Everything about the person is removed and cannot be restored. Only your reason is kept in the security log.</p>
        </div>
        <Button variant="danger" onClick={() => setOpen(true)}>
          Erase…
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        onClose={() => {
          setOpen(false);
          setReasonError(null);
          erase.reset();
        }}
        title={`Erase ${user.DisplayName} permanently?`}
        confirmLabel="Erase permanently"
        busyLabel="Erasing…"
        busy={erase.isPending}
        error={erase.isError ? problemMessage(erase.error) : null}
        typeToConfirm={user.UserName}
        onConfirm={confirm}
      >
        <div className="field">
          <label className="field-label" htmlFor={reasonId}>
            Reason
          </label>
          <textarea
            id={reasonId}
            className="textarea"
            rows={2}
            value={reason}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? `${reasonId}-error` : undefined}
            onChange={(e) => setReason(e.target.value)}
          />
          {reasonError ? (
            <p className="field-error" id={`${reasonId}-error`}>
              {reasonError}
            </p>
          ) : null}
        </div>
      </ConfirmDialog>
    </section>
  );
}
