import { Alert } from '@/components/ui/alert';
import { CopyField } from '@/components/ui/copy-button';
import { formatDate } from '@/components/ui/query-state';
import type { AdminInvite } from './types';

/** The one-time administrator link (spec 2.2): shown once, never again. */
export function InviteResult({ invite }: { invite: AdminInvite }) {
  return (
    <div className="stack" data-testid="admin-invite">
      <Alert tone="warning" title="Copy this link now: it is shown only once">
        <p>
          Send it to <strong>{invite.UserName}</strong> ({invite.Email}) over a channel you trust. It works once and expires {formatDate(invite.ExpiresAt)}. If
          it gets lost, issue a new invite: that revokes this one.
        </p>
      </Alert>
      <CopyField label="Administrator invite link" value={invite.MagicLinkUrl} />
    </div>
  );
}
