'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, problemMessage } from '@/components/data/api';
import { downloadFile } from '@/components/data/download';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/field';
import { formatDate, QueryState } from '@/components/ui/query-state';
import { deleteAccountBodySchema, type deletionStatusSchema } from '@/lib/domain/privacy/schemas';
import type { WireOf } from '@/lib/http/wire';
import { AccountSection } from './section';

type DeletionStatus = WireOf<typeof deletionStatusSchema>;
const statusKey = ['account', 'deletion-status'] as const;

const passwordForm = z.object({ Password: deleteAccountBodySchema.shape.Password.unwrap().unwrap().min(1, 'Enter your password to confirm it is you.') });
type PasswordValues = z.infer<typeof passwordForm>;

/** "Download my data": the archive of everything the realm holds about you (spec 4.6). */
function DownloadData() {
  const [saved, setSaved] = useState<string | null>(null);
  const download = useMutation({
    mutationFn: () => downloadFile('/api/auth/export-data', { fallbackName: 'my-data.zip' }),
    onMutate: () => setSaved(null),
    onSuccess: (name) => setSaved(name),
  });
  return (
    <div className="stack-sm">
      <h3>Download my data</h3>
      <p className="muted small">
        A ZIP file with your profile, sessions, passkeys (without their keys), linked accounts, change requests, the permissions you gave to applications, your
        groups and the security log of your account. It never contains a password or another secret.
      </p>
      {saved ? <Alert tone="success" title={`Your data was saved as ${saved}.`} /> : null}
      {download.isError ? <Alert tone="danger" title={problemMessage(download.error)} /> : null}
      <div>
        <Button onClick={() => download.mutate()} busy={download.isPending} busyLabel="Preparing your data…">
          Download my data
        </Button>
      </div>
    </div>
  );
}

/** The request form: what deleting means, and the password when the account has one. */
function RequestDeletion({ hasPassword, email, onRequested }: { hasPassword: boolean; email: string; onRequested: () => void }) {
  const form = useForm<PasswordValues>({ resolver: hasPassword ? zodResolver(passwordForm) : undefined, defaultValues: { Password: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, ['Password'] as const);
  const request = useMutation({
    mutationFn: (v: PasswordValues) => api<DeletionStatus>('/api/auth/delete-account', { method: 'POST', body: hasPassword ? { Password: v.Password } : {} }),
    onSuccess: () => {
      form.reset();
      onRequested();
    },
    onError: (e) => {
      form.resetField('Password');
      report(e, { codeFields: { 'Password.Incorrect': 'Password' } });
    },
  });
  return (
    <form
      className="form"
      noValidate
      aria-label="Delete my account"
      onSubmit={form.handleSubmit((v) => {
        clear();
        request.mutate(v);
      })}
    >
      <ErrorSummary summary={summary} ref={summaryRef} />
      <p>Deleting your account:</p>
      <ul className="small">
        <li>first gives you a copy of your data;</li>
        <li>erases your name, e-mail address, password, passkeys, authenticator app, linked accounts and change requests, and takes you out of every group;</li>
        <li>signs you out of every browser and application, which lose their access;</li>
        <li>keeps in the security log only what happened and when, without your name or where you signed in from.</li>
      </ul>
      <p>
        It cannot be undone. We send a link to <strong>{email}</strong>: nothing is deleted until you open it and confirm. The copy is downloaded only once, so
        you may want to download your data above first.
      </p>
      {hasPassword ? (
        <PasswordField
          label="Your password"
          registration={form.register('Password')}
          error={form.formState.errors.Password?.message}
          autoComplete="current-password"
        />
      ) : null}
      <div className="form-actions">
        <Button type="submit" variant="danger" busy={request.isPending} busyLabel="Sending the link…">
          Delete my account…
        </Button>
      </div>
    </form>
  );
}

/** "Delete my account" (spec 3.5): the request, and while it is pending, when it lapses and a way to cancel it. */
function DeleteAccount({ hasPassword, email }: { hasPassword: boolean; email: string }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: statusKey, queryFn: ({ signal }) => api<DeletionStatus>('/api/auth/deletion-status', { signal }) });
  const [cancelled, setCancelled] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: statusKey });
  const cancel = useMutation({
    mutationFn: () => api<DeletionStatus>('/api/auth/cancel-deletion', { method: 'POST', body: {} }),
    onSuccess: async () => {
      setCancelled(true);
      await refresh();
    },
    // Already cancelled or lapsed elsewhere: the status says so.
    onError: () => void refresh(),
  });
  return (
    <div className="stack-sm">
      <h3>Delete my account</h3>
      <QueryState isPending={status.isPending} error={status.error} onRetry={() => void status.refetch()}>
        {status.data?.Status === 'Pending' ? (
          <div className="stack-sm">
            <Alert tone="warning" title="Your account is waiting to be deleted">
              <p>
                You asked for it on {formatDate(status.data.RequestedAt)}. Open the link we sent to <strong>{email}</strong> and confirm to delete your account;
                the link works until {formatDate(status.data.ExpiresAt)}. Until then your account works as before.
              </p>
            </Alert>
            {cancel.isError ? <Alert tone="danger" title={problemMessage(cancel.error)} /> : null}
            <div>
              <Button onClick={() => cancel.mutate()} busy={cancel.isPending} busyLabel="Cancelling…">
                Cancel the deletion
              </Button>
            </div>
          </div>
        ) : (
          <div className="stack-sm">
            {cancelled ? <Alert tone="success" title="The deletion was cancelled. Your account stays as it is." /> : null}
            <RequestDeletion
              hasPassword={hasPassword}
              email={email}
              onRequested={() => {
                setCancelled(false);
                void refresh();
              }}
            />
          </div>
        )}
      </QueryState>
    </div>
  );
}

/** Your data and your account (spec 4.6): download everything, or delete the account. */
export function PrivacySection({ hasPassword, email }: { hasPassword: boolean; email: string }) {
  return (
    <AccountSection id="privacy" title="Your data" description="Take a copy of your data, or delete your account.">
      <DownloadData />
      <DeleteAccount hasPassword={hasPassword} email={email} />
    </AccountSection>
  );
}
