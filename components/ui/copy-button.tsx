'use client';
import { useId, useRef, useState } from 'react';

/** A read-only value with a copy button; the result is announced politely. */
export function CopyField({ value, label }: { value: string; label: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setStatus('Copied to the clipboard.');
    } catch {
      // No clipboard permission: select the text so Ctrl+C copies it.
      input.current?.select();
      setStatus('Press Ctrl+C (or ⌘C) to copy the selected text.');
    }
  };
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="secret-box">
        <input ref={input} id={id} className="input" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="btn" onClick={copy}>
          Copy
        </button>
      </div>
      <p className="field-hint" role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}
