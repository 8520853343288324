'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { QueryState } from '@/components/ui/query-state';
import { accountKeys, type EmailOtpStatus } from './account-types';
import { AccountSection } from './section';

/** The account's address (spec 4.2): whether it is confirmed, and a new confirmation link. */
export function EmailSection({ email, confirmed }: { email: string; confirmed: boolean }) {
  const status = useQuery({ queryKey: accountKeys.emailOtp, queryFn: ({ signal }) => api<EmailOtpStatus>('/api/account/email-otp/status', { signal }) });
  const send = useMutation({ mutationFn: () => api('/api/account/email/send-verification', { method: 'POST', body: {} }) });
  const isConfirmed = status.data?.EmailConfirmed ?? confirmed;
  const address = status.data?.Email ?? email;
  return (
    <AccountSection
      id="email"
      title="E-mail"
      description="Where we send sign-in codes, links and security notices. To use another address, request a profile change."
    >
      <QueryState isPending={false} error={status.error} onRetry={() => status.refetch()}>
        <dl className="dl">
          <dt>Address</dt>
          <dd>
            <span className="row">
              {address}
              {isConfirmed ? <span className="badge badge-success">Confirmed</span> : <span className="badge badge-danger">Not confirmed</span>}
            </span>
          </dd>
          {status.data ? (
            <>
              <dt>Sign-in codes by e-mail</dt>
              <dd>{status.data.Enabled ? 'Available' : 'Not available'}</dd>
            </>
          ) : null}
        </dl>
        {!isConfirmed ? (
          <div className="stack-sm">
            <p>Confirm your address through the link we e-mailed you. Didn’t get it?</p>
            <div className="row">
              <Button busy={send.isPending} busyLabel="Sending…" onClick={() => send.mutate()}>
                Send the link again
              </Button>
            </div>
            {send.isSuccess ? <Alert tone="success" title={`We sent a new link to ${address}.`} /> : null}
            {send.isError ? <Alert tone="danger" title={problemMessage(send.error)} /> : null}
          </div>
        ) : null}
      </QueryState>
    </AccountSection>
  );
}
