'use client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CodeForm } from './code-form';
import type { LoginOutcome, SecondFactor } from './login-outcome';
import { passkeyMessage, passkeySignIn } from './passkey';

const ORDER: SecondFactor[] = ['totp', 'passkey', 'email-otp'];
const SWITCH_LABEL: Record<SecondFactor, string> = {
  totp: 'Use your authenticator app instead',
  passkey: 'Use a passkey instead',
  'email-otp': 'E-mail me a code instead',
};

/**
 * Second sign-in step (spec 4.3, 5.5): the authenticator app's code, or one of the alternatives the
 * first step offered in `mfaMethods` (a code mailed to the account's address, a passkey). All of
 * them finish the pending sign-in the `gatehouse_mfa` cookie names.
 */
export function TwoFactorStep({ methods, onOutcome, onCancel }: { methods: SecondFactor[]; onOutcome: (o: LoginOutcome) => void; onCancel: () => void }) {
  const offered = ORDER.filter((m) => methods.includes(m));
  const [method, setMethod] = useState<SecondFactor>(offered[0] ?? 'totp');
  const others = offered.filter((m) => m !== method);

  return (
    <div className="stack">
      {method === 'totp' ? (
        <CodeForm
          label="Verification code"
          hint="The 6-digit code your authenticator app shows for this account."
          invalidMessage="Enter the 6-digit code from your authenticator app."
          submitLabel="Verify"
          busyLabel="Verifying…"
          send={(Code) => api<LoginOutcome>('/api/account/mfa/login', { method: 'POST', body: { Code } })}
          onOutcome={onOutcome}
        />
      ) : method === 'passkey' ? (
        <PasskeySecondStep onOutcome={onOutcome} />
      ) : (
        <EmailCodeSecondStep onOutcome={onOutcome} />
      )}
      {others.length ? (
        <div className="hosted-methods" aria-label="Other ways to confirm it is you" role="group">
          {others.map((m) => (
            <Button key={m} variant="secondary" block onClick={() => setMethod(m)}>
              {SWITCH_LABEL[m]}
            </Button>
          ))}
        </div>
      ) : null}
      <Button variant="ghost" block onClick={onCancel}>
        Back to sign-in
      </Button>
    </div>
  );
}

function PasskeySecondStep({ onOutcome }: { onOutcome: (o: LoginOutcome) => void }) {
  const passkey = useMutation({ mutationFn: passkeySignIn, onSuccess: onOutcome });
  return (
    <div className="stack">
      <p className="muted">Confirm with a passkey saved for your account on this device or a security key.</p>
      {passkey.isError ? (
        <Alert tone="danger" title="That did not work">
          <p>{passkeyMessage(passkey.error) ?? problemMessage(passkey.error)}</p>
        </Alert>
      ) : null}
      <Button
        variant="primary"
        block
        autoFocus
        busy={passkey.isPending || passkey.isSuccess}
        busyLabel={passkey.isSuccess ? 'Signing you in…' : 'Waiting for your passkey…'}
        onClick={() => passkey.mutate()}
      >
        Use your passkey
      </Button>
    </div>
  );
}

function EmailCodeSecondStep({ onOutcome }: { onOutcome: (o: LoginOutcome) => void }) {
  // No Email: the server reads the pending cookie and mails the account's own address.
  const [sends, setSends] = useState(0);
  const request = useMutation({
    mutationFn: () => api('/api/account/email-otp/login/request', { method: 'POST', body: {} }),
    onSuccess: () => setSends((n) => n + 1),
  });
  if (sends === 0) {
    return (
      <div className="stack">
        <p className="muted">We will e-mail a 6-digit code to the address of your account.</p>
        {request.isError ? (
          <Alert tone="danger" title="The code could not be sent">
            <p>{problemMessage(request.error)}</p>
          </Alert>
        ) : null}
        <Button variant="primary" block autoFocus busy={request.isPending} busyLabel="Sending…" onClick={() => request.mutate()}>
          Send me a code
        </Button>
      </div>
    );
  }
  return (
    <CodeForm
      label="Code from the e-mail"
      hint="We sent a 6-digit code to the address of your account. It works for 10 minutes."
      invalidMessage="Enter the 6-digit code from the e-mail."
      submitLabel="Verify"
      busyLabel="Verifying…"
      send={(Code) => api<LoginOutcome>('/api/account/email-otp/login', { method: 'POST', body: { Code } })}
      onOutcome={onOutcome}
    >
      <Button variant="ghost" block busy={request.isPending} busyLabel="Sending…" onClick={() => request.mutate()}>
        Send a new code
      </Button>
      {sends > 1 && !request.isPending ? (
        <p className="small muted" role="status">
          A new code is on its way.
        </p>
      ) : null}
    </CodeForm>
  );
}
