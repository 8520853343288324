'use client';
import { useEffect, useRef } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyField } from '@/components/ui/copy-button';
import type { MintedCode } from './types';

/**
 * Codes just minted: the only time their plaintext is shown (Gatehouse keeps a digest). The warning
 * takes focus when the panel appears, so keyboard and screen-reader users land on it.
 */
export function MintedCodes({ codes, appName, onDone }: { codes: MintedCode[]; appName: string; onDone: () => void }) {
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => alert.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [codes]);
  const several = codes.length > 1;
  return (
    <section className="card" aria-label="New invite codes, shown once" data-testid="minted-codes">
      <div className="card-body stack">
        <Alert ref={alert} tone="warning" title={several ? `Copy the ${codes.length} codes now` : 'Copy the code now'}>
          <p>
            {several ? 'They sign' : 'It signs'} people up to {appName}, once each. You won’t see {several ? 'them' : 'it'} again: Gatehouse keeps only a
            digest. If one gets lost, revoke it and mint another.
          </p>
        </Alert>
        {several ? <CopyField label="All codes, one per line" value={codes.map((c) => c.Code).join('\n')} /> : null}
        {codes.map((c, i) => (
          <CopyField
            key={c.Id}
            label={several ? `Code ${i + 1}${c.Label ? ` (${c.Label})` : ''}` : `Invite code${c.Label ? ` (${c.Label})` : ''}`}
            value={c.Code}
          />
        ))}
        <div className="form-actions">
          <Button onClick={onDone}>I have copied the codes</Button>
        </div>
      </div>
    </section>
  );
}
