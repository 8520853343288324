import Link from 'next/link';
import { Alert } from '@/components/ui/alert';

/** A mailed link opened without its `?token=…`. */
export function IncompleteLink({ what }: { what: string }) {
  return (
    <div className="stack">
      <Alert tone="warning" title="This link is incomplete">
        <p>
          Open the full {what} link from the e-mail. It ends with <code>?token=…</code>.
        </p>
      </Alert>
      <Link href="/login" className="btn btn-block">
        Go to sign-in
      </Link>
    </div>
  );
}
