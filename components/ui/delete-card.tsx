'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';

/** A "danger zone" card: DELETE `path` after confirmation, then `onDeleted`. */
export function DeleteCard({
  path,
  what,
  name,
  explanation,
  onDeleted,
}: {
  path: string;
  what: string;
  name: string;
  explanation: ReactNode;
  onDeleted: () => void;
}) {
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => api(path, { method: 'DELETE' }),
    onSuccess: () => {
      setOpen(false);
      onDeleted();
    },
  });
  return (
    <section className="card card-danger" aria-label={`Delete ${what}`}>
      <div className="card-body row-between">
        <div className="stack-sm">
          <h2>Delete {what}</h2>
          <p className="muted small">{explanation}</p>
        </div>
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete…
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        onClose={() => {
          setOpen(false);
          remove.reset();
        }}
        title={`Delete ${what} “${name}”?`}
        confirmLabel={`Delete ${what}`}
        busyLabel="Deleting…"
        busy={remove.isPending}
        error={remove.isError ? problemMessage(remove.error) : null}
        onConfirm={() => remove.mutate()}
      >
        <p>{explanation}</p>
      </ConfirmDialog>
    </section>
  );
}
