'use client';
import Link from 'next/link';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useLiveChanges } from './live-provider';

// A detail page's side of live refresh (docs/realtime.md, "The console"). The page's queries refetch
// on their own (LiveProvider invalidates them); this says what happened when that alone would mislead:
// the item was deleted elsewhere, or changed elsewhere while the person has unsaved edits (the forms
// keep dirty values, so without a word their save would silently overwrite the other change).

/** Registers a form's unsaved edits with the detail page around it; returns the unregister function. */
const DirtyContext = createContext<(() => () => void) | null>(null);

/** Called by an edit form: while `dirty`, a change elsewhere is announced instead of passing silently. */
export function useReportDirty(dirty: boolean): void {
  const register = useContext(DirtyContext);
  useEffect(() => (dirty && register ? register() : undefined), [dirty, register]);
}

export function LiveDetail(props: {
  /** The hub's resource name (components/realtime/resources.ts). */
  resource: string;
  id: string;
  /** What the person calls it: "user", "group", "OAuth client". */
  thing: string;
  listHref: string;
  listLabel: string;
  children: ReactNode;
}) {
  const { resource, id, thing, listHref, listLabel, children } = props;
  const [deleted, setDeleted] = useState(false);
  const [changed, setChanged] = useState(false);
  const dirtyForms = useRef(0);
  const register = useCallback(() => {
    dirtyForms.current += 1;
    return () => {
      dirtyForms.current -= 1;
      // Saved or discarded: the form now shows the latest, the warning has done its job.
      if (dirtyForms.current === 0) setChanged(false);
    };
  }, []);

  useLiveChanges((change) => {
    if (change.Resource !== resource || change.Id !== id || change.echo) return;
    if (change.Action === 'deleted') setDeleted(true);
    else if (change.Action === 'updated' && dirtyForms.current > 0) setChanged(true);
  });

  return (
    <DirtyContext.Provider value={register}>
      {deleted ? (
        <Alert tone="warning" title={`This ${thing} was deleted elsewhere.`}>
          <p>
            Someone else deleted it while you had it open. <Link href={listHref}>Back to {listLabel}</Link>
          </p>
        </Alert>
      ) : changed ? (
        <Alert tone="warning" title={`This ${thing} was changed elsewhere — reload to see the latest.`}>
          <p>Your unsaved edits are still here; saving them would overwrite the other change.</p>
          <div>
            <Button size="sm" onClick={() => window.location.reload()}>
              Reload
            </Button>
          </div>
        </Alert>
      ) : null}
      {children}
    </DirtyContext.Provider>
  );
}
