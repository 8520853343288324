'use client';
import { useEffect, useRef, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { CopyField } from '@/components/ui/copy-button';

/**
 * A client secret the API answers exactly once (create, regenerate, rotate): only its digest is
 * stored, so this panel is the one chance to copy it. The warning takes focus when the panel
 * appears, so keyboard and screen-reader users land on it rather than on the form that vanished.
 */
export function SecretOnce({
  clientId,
  secret,
  title = 'Copy the client secret now',
  children,
  actions,
}: {
  clientId?: string;
  secret: string;
  title?: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A confirm dialog closing in the same commit hands focus back to its opener in its own
    // effect; waiting a frame lets the warning win.
    const frame = requestAnimationFrame(() => alert.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [secret]);
  return (
    <section className="card" aria-label="One-time secret" data-testid="secret-once">
      <div className="card-body stack">
        <Alert ref={alert} tone="warning" title={title}>
          <p>
            You won’t see it again: Gatehouse keeps only a digest of it. Store it in your secret manager before you leave this page. If it gets lost, issue a
            new secret.
          </p>
        </Alert>
        {children}
        {clientId ? <CopyField label="Client ID" value={clientId} /> : null}
        <CopyField label="Client secret" value={secret} />
        {actions ? <div className="form-actions">{actions}</div> : null}
      </div>
    </section>
  );
}
