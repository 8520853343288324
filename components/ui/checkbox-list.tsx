'use client';
import { useId, type ReactNode } from 'react';

export type CheckboxOption = { value: string; label: ReactNode; hint?: ReactNode; disabled?: boolean };

/** A fieldset of checkboxes bound to a string[] (use with react-hook-form's Controller). */
export function CheckboxList({
  legend,
  hint,
  options,
  value,
  onChange,
  error,
  empty = 'Nothing to choose from.',
  disabled,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  options: CheckboxOption[];
  value: string[];
  onChange: (next: string[]) => void;
  error?: string;
  empty?: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  const selected = new Set(value);
  const toggle = (v: string, on: boolean) => onChange(on ? [...value.filter((x) => x !== v), v] : value.filter((x) => x !== v));
  return (
    <fieldset
      className="fieldset"
      aria-describedby={[error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined}
      disabled={disabled}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {options.length ? (
        <div className="checkbox-list">
          {options.map((o) => (
            <label key={o.value} className="checkbox">
              <input type="checkbox" checked={selected.has(o.value)} disabled={o.disabled} onChange={(e) => toggle(o.value, e.target.checked)} />
              <span>
                <span>{o.label}</span>
                {o.hint ? <span className="field-hint block">{o.hint}</span> : null}
              </span>
            </label>
          ))}
        </div>
      ) : (
        <p className="muted small">{empty}</p>
      )}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
