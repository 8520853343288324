'use client';
import { useId, useState, type ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';
import { Dialog } from './dialog';

/**
 * Asks before an action. With `typeToConfirm`, the action stays disabled until that exact text is
 * typed (for irreversible operations).
 */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  children,
  confirmLabel,
  busyLabel,
  busy,
  error,
  tone = 'danger',
  typeToConfirm,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  busy?: boolean;
  error?: string | null;
  tone?: 'danger' | 'primary';
  typeToConfirm?: string;
}) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const bodyId = useId();
  const ready = !typeToConfirm || typed.trim() === typeToConfirm;
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={title}
      describedBy={bodyId}
      footer={
        <>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button variant={tone === 'danger' ? 'danger' : 'primary'} disabled={!ready} busy={busy} busyLabel={busyLabel} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready && !busy) onConfirm();
        }}
      >
        <div id={bodyId} className="stack-sm">
          {children}
        </div>
        {typeToConfirm ? (
          <div className="field">
            <label className="field-label" htmlFor={inputId}>
              Type <code>{typeToConfirm}</code> to confirm
            </label>
            <input id={inputId} className="input" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} autoFocus />
          </div>
        ) : null}
        {error ? <Alert tone="danger" title={error} /> : null}
      </form>
    </Dialog>
  );
}
