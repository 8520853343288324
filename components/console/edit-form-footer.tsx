'use client';
import Link from 'next/link';
import { Button, buttonClass } from '@/components/ui/button';
import { useReportDirty } from '@/components/realtime/live-detail';

// The footer of the console's create/edit forms: create (with Cancel back to the list), or save
// (enabled once something changed) with Discard to return to the stored values.
export function EditFormFooter(props: { editing: boolean; dirty: boolean; busy: boolean; createLabel: string; cancelHref: string; onDiscard: () => void }) {
  const { editing, dirty, busy, createLabel, cancelHref, onDiscard } = props;
  useReportDirty(editing && dirty);
  return (
    <div className="card-footer form-actions">
      <Button type="submit" variant="primary" busy={busy} busyLabel={editing ? 'Saving…' : 'Creating…'} disabled={editing && !dirty}>
        {editing ? 'Save changes' : createLabel}
      </Button>
      {editing ? (
        dirty ? (
          <Button variant="ghost" onClick={onDiscard}>
            Discard
          </Button>
        ) : null
      ) : (
        <Link href={cancelHref} className={buttonClass('ghost')}>
          Cancel
        </Link>
      )}
    </div>
  );
}
