'use client';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { downloadFile } from '@/components/data/download';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TokenFailure } from './token-action';

/**
 * /confirm-deletion: the page the mailed deletion link opens (spec 3.5). It does not act on
 * opening (a mail scanner may open links): the person confirms with the button, the archive of
 * their data downloads, and the page says the account is gone. The server ended every session,
 * this browser's too.
 */
export function ConfirmDeletion({ token }: { token: string }) {
  const confirm = useMutation({
    mutationFn: () => downloadFile('/api/auth/confirm-deletion', { method: 'POST', body: { Token: token }, fallbackName: 'my-data.zip' }),
  });
  if (confirm.isSuccess) {
    return (
      <div className="stack">
        <Alert tone="success" title="Your account has been deleted">
          <p>A copy of your data was saved as {confirm.data}. Your personal data has been erased and you have been signed out everywhere.</p>
        </Alert>
        <Link href="/login" className="btn btn-block">
          Go to sign-in
        </Link>
      </div>
    );
  }
  if (confirm.isError) {
    return (
      <TokenFailure error={confirm.error} retry={() => confirm.mutate()} busy={confirm.isPending}>
        <Link href="/account" className="btn btn-ghost btn-block">
          Go to my account
        </Link>
      </TokenFailure>
    );
  }
  return (
    <div className="stack">
      <p>When you confirm, you receive a copy of your data as a ZIP file. Then:</p>
      <ul>
        <li>your name, e-mail address, password, passkeys, authenticator app and linked accounts are erased;</li>
        <li>you are signed out of every browser and application, and they lose their access;</li>
        <li>the security log keeps only what happened and when, without anything that names you.</li>
      </ul>
      <Alert tone="warning" title="This cannot be undone." />
      <Button variant="danger" block busy={confirm.isPending} busyLabel="Deleting your account…" onClick={() => confirm.mutate()}>
        Delete my account and download my data
      </Button>
      <Link href="/account" className="btn btn-ghost btn-block">
        Keep my account
      </Link>
    </div>
  );
}
