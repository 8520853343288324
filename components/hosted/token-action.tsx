'use client';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef, type ReactNode } from 'react';
import { api, ApiError, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

function tokenProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'Token.Expired') return 'This link has expired. Ask for a new one.';
    if (error.code === 'Token.Used') return 'This link has already been used.';
    if (error.code === 'Email.AlreadyConfirmed') return 'Your e-mail address is already confirmed.';
    if (error.code === 'Token.Invalid') return 'This link is not valid. Check that you opened the whole link from the e-mail.';
  }
  return problemMessage(error);
}

/**
 * Redeems a mailed link's token as soon as the page opens (once, even when React mounts twice in
 * development), with a button to try again when that fails (offline, or a scanner was first).
 */
export function useTokenRedemption<T>(token: string, redeem: (token: string) => Promise<T>, onSuccess?: (data: T) => void) {
  const started = useRef(false);
  const mutation = useMutation({ mutationFn: () => redeem(token), onSuccess });
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutation.mutate();
  }, []);
  return mutation;
}

export function TokenProgress({ label }: { label: string }) {
  return (
    <p className="muted row" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function TokenFailure({ error, retry, busy, children }: { error: unknown; retry: () => void; busy: boolean; children?: ReactNode }) {
  const final = error instanceof ApiError && (error.code?.startsWith('Token.') || error.code === 'Email.AlreadyConfirmed');
  return (
    <div className="stack">
      <Alert tone="danger" title="That did not work">
        <p>{tokenProblem(error)}</p>
      </Alert>
      {final ? null : (
        <Button variant="primary" block busy={busy} busyLabel="Trying again…" onClick={retry}>
          Try again
        </Button>
      )}
      {children}
    </div>
  );
}

/**
 * A page that confirms an e-mail address with a mailed token on load: progress, then success with
 * a way on to the account, or the failure with a retry. The two verify pages differ only in the
 * call and the words.
 */
function EmailConfirmation<T>(props: {
  token: string;
  redeem: (token: string) => Promise<T>;
  confirmed: string;
  message: (data: T) => string;
  progress: string;
  action: string;
}) {
  const verify = useTokenRedemption(props.token, props.redeem);
  const toAccount = (primary: boolean) => (
    <Link href="/account" className={`btn ${primary ? 'btn-primary' : 'btn-ghost'} btn-block`}>
      Go to my account
    </Link>
  );
  if (verify.isSuccess) {
    return (
      <div className="stack">
        <Alert tone="success" title={props.confirmed}>
          <p>{props.message(verify.data)}</p>
        </Alert>
        {toAccount(true)}
      </div>
    );
  }
  if (verify.isError) {
    return (
      <TokenFailure error={verify.error} retry={() => verify.mutate()} busy={verify.isPending}>
        {toAccount(false)}
      </TokenFailure>
    );
  }
  return (
    <div className="stack">
      <TokenProgress label={props.progress} />
      <Button variant="secondary" block busy={verify.isPending} busyLabel="Confirming…" onClick={() => verify.mutate()}>
        {props.action}
      </Button>
    </div>
  );
}

/** /verify-email: confirms the account's address with the mailed token. */
export function VerifyEmail({ token }: { token: string }) {
  return (
    <EmailConfirmation
      token={token}
      redeem={(Token) => api<{ EmailConfirmed: true }>('/api/account/email/verify', { method: 'POST', body: { Token } })}
      confirmed="Your e-mail address is confirmed"
      message={() => 'Thank you. You can close this page or continue to your account.'}
      progress="Confirming your e-mail address…"
      action="Confirm my e-mail address"
    />
  );
}

type VerifiedRequest = { Id: string; Status: 'AwaitingEmailVerification' | 'Open' | 'Approved' | 'Rejected' | 'Cancelled' };

/** /verify-profile-email: confirms the new address of a profile change request. */
export function VerifyProfileEmail({ token }: { token: string }) {
  return (
    <EmailConfirmation
      token={token}
      redeem={(Token) => api<VerifiedRequest>('/api/account/profile/request/verify-email', { method: 'POST', body: { Token } })}
      confirmed="Your new e-mail address is confirmed"
      message={(data) =>
        data.Status === 'Approved'
          ? 'The change has been applied.'
          : 'Your change request now waits for an administrator. You will get an e-mail when it has been decided.'
      }
      progress="Confirming your new e-mail address…"
      action="Confirm my new e-mail address"
    />
  );
}
