'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyField } from '@/components/ui/copy-button';
import { CodeForm } from './code-form';
import type { LoginOutcome } from './login-outcome';

type Setup = { SharedKey: string; AuthenticatorUri: string; QrCodeSvg: string };

/** The SVG our server drew, as an image: an <img> never runs scripts, unlike inline markup. */
function svgDataUri(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** `ABCD EFGH …`: easier to read and type than one long run. */
function grouped(key: string): string {
  return key.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The grace period for setting up a second factor is over (spec 4.3): the setup-only pending cookie
 * lets this step enrol an authenticator app; confirming its first code signs the person in.
 */
export function SecureSetupStep({ onOutcome, onCancel }: { onOutcome: (o: LoginOutcome) => void; onCancel: () => void }) {
  // A query, not an effect: it runs once even when React mounts twice in development, and a second
  // `setup` would replace the key the person may already have scanned.
  const setup = useQuery({
    queryKey: ['hosted', 'mfa-setup'],
    queryFn: () => api<Setup>('/api/account/mfa/setup', { method: 'POST' }),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  if (setup.isPending) {
    return (
      <p className="muted row" role="status">
        <span className="spinner" aria-hidden="true" /> Preparing your authenticator set-up…
      </p>
    );
  }
  if (setup.isError) {
    return (
      <div className="stack">
        <Alert tone="danger" title="Two-factor set-up could not start">
          <p>{problemMessage(setup.error)} Your sign-in may have expired: sign in again to continue.</p>
        </Alert>
        <Button variant="primary" block onClick={onCancel}>
          Back to sign-in
        </Button>
      </div>
    );
  }
  const { SharedKey, QrCodeSvg } = setup.data;
  return (
    <div className="stack">
      <Alert tone="warning" title="Set up two-factor authentication to continue">
        <p>Your account needs a second factor and the grace period has ended. It takes a minute.</p>
      </Alert>
      <ol className="stack-sm">
        <li>Open an authenticator app (for example Google Authenticator, Microsoft Authenticator or 1Password).</li>
        <li>Scan this QR code, or enter the key below by hand.</li>
        <li>Type the 6-digit code the app shows.</li>
      </ol>
      <div className="hosted-qr">
        <img src={svgDataUri(QrCodeSvg)} alt="QR code for your authenticator app. If you cannot scan it, use the set-up key below." width={188} height={188} />
      </div>
      <CopyField label="Set-up key (for entering by hand)" value={grouped(SharedKey)} />
      <CodeForm
        label="Code from your authenticator app"
        invalidMessage="Enter the 6-digit code from your authenticator app."
        submitLabel="Turn on and continue"
        busyLabel="Checking…"
        send={(Code) => api<LoginOutcome>('/api/account/mfa/verify', { method: 'POST', body: { Code } })}
        onOutcome={onOutcome}
      >
        <Button variant="ghost" block onClick={onCancel}>
          Back to sign-in
        </Button>
      </CodeForm>
    </div>
  );
}

/** Signed in during the grace period: a nudge to set up a second factor, then on. */
export function SecureSetupGrace({ dueAt, redirectTo }: { dueAt?: string; redirectTo: string }) {
  const due = dueAt ? new Date(dueAt) : null;
  const when = due && !Number.isNaN(due.getTime()) ? due.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }) : null;
  return (
    <div className="stack">
      <Alert tone="warning" title="Please set up two-factor authentication">
        <p>
          You are signed in. Your account needs a second factor
          {when ? (
            <>
              {' '}
              by <strong>{when}</strong>
            </>
          ) : (
            ' soon'
          )}
          ; after that you cannot sign in without one.
        </p>
      </Alert>
      <Link href="/account" className="btn btn-primary btn-block">
        Set it up now
      </Link>
      <Button variant="ghost" block onClick={() => window.location.assign(redirectTo)}>
        Remind me later
      </Button>
    </div>
  );
}
