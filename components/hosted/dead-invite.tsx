import Link from 'next/link';
import { Alert } from '@/components/ui/alert';

/** An administrator invite link that no longer works: used (spec 3.3), or revoked or expired. */
export function DeadInvite({ reason }: { reason: 'used' | 'invalid' }) {
  return (
    <div className="stack">
      <Alert tone="danger" title={reason === 'used' ? 'This invite link has already been used' : 'This invite link is invalid or has expired'}>
        <p>
          {reason === 'used'
            ? 'If you set your password with it, sign in with that password. If not, ask an administrator for a new invite.'
            : 'Invite links work once, for 24 hours. Ask an administrator for a new one.'}
        </p>
      </Alert>
      <Link href="/login" className="btn btn-primary btn-block">
        Go to sign-in
      </Link>
    </div>
  );
}
