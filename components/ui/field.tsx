'use client';
import { useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

// Labelled inputs: every control has a <label>, its hint and error are tied to it with
// aria-describedby, and aria-invalid marks a field with an error.

type Common = { label: ReactNode; hint?: ReactNode; error?: string; optional?: boolean; registration: UseFormRegisterReturn };

function useDescribedBy(hint: ReactNode, error: string | undefined) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return { id, hintId, errorId, describedBy: [errorId, hintId].filter(Boolean).join(' ') || undefined };
}

function FieldShell({
  id,
  label,
  optional,
  hint,
  hintId,
  error,
  errorId,
  children,
}: {
  id: string;
  label: ReactNode;
  optional?: boolean;
  hint?: ReactNode;
  hintId?: string;
  error?: string;
  errorId?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
        {optional ? <span className="field-optional">(optional)</span> : null}
      </label>
      {children}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function TextField({
  label,
  hint,
  error,
  optional,
  registration,
  type = 'text',
  ...rest
}: Common & Omit<InputHTMLAttributes<HTMLInputElement>, keyof UseFormRegisterReturn | 'id'>) {
  const d = useDescribedBy(hint, error);
  return (
    <FieldShell id={d.id} label={label} optional={optional} hint={hint} hintId={d.hintId} error={error} errorId={d.errorId}>
      <input id={d.id} type={type} className="input" aria-invalid={error ? true : undefined} aria-describedby={d.describedBy} {...rest} {...registration} />
    </FieldShell>
  );
}

/** A password input with a show/hide toggle (a real button, reachable by keyboard). */
export function PasswordField({
  label,
  hint,
  error,
  optional,
  registration,
  ...rest
}: Common & Omit<InputHTMLAttributes<HTMLInputElement>, keyof UseFormRegisterReturn | 'id' | 'type'>) {
  const d = useDescribedBy(hint, error);
  const [shown, setShown] = useState(false);
  return (
    <FieldShell id={d.id} label={label} optional={optional} hint={hint} hintId={d.hintId} error={error} errorId={d.errorId}>
      <div className="password-wrap">
        <input
          id={d.id}
          type={shown ? 'text' : 'password'}
          className="input"
          aria-invalid={error ? true : undefined}
          aria-describedby={d.describedBy}
          {...rest}
          {...registration}
        />
        <button type="button" className="btn btn-ghost password-toggle" aria-controls={d.id} aria-pressed={shown} onClick={() => setShown((s) => !s)}>
          {shown ? 'Hide' : 'Show'}
          <span className="visually-hidden"> password</span>
        </button>
      </div>
    </FieldShell>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  optional,
  registration,
  ...rest
}: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, keyof UseFormRegisterReturn | 'id'>) {
  const d = useDescribedBy(hint, error);
  return (
    <FieldShell id={d.id} label={label} optional={optional} hint={hint} hintId={d.hintId} error={error} errorId={d.errorId}>
      <textarea id={d.id} className="textarea" aria-invalid={error ? true : undefined} aria-describedby={d.describedBy} {...rest} {...registration} />
    </FieldShell>
  );
}

export function SelectField({
  label,
  hint,
  error,
  optional,
  registration,
  children,
  ...rest
}: Common & Omit<SelectHTMLAttributes<HTMLSelectElement>, keyof UseFormRegisterReturn | 'id'>) {
  const d = useDescribedBy(hint, error);
  return (
    <FieldShell id={d.id} label={label} optional={optional} hint={hint} hintId={d.hintId} error={error} errorId={d.errorId}>
      <select id={d.id} className="select" aria-invalid={error ? true : undefined} aria-describedby={d.describedBy} {...rest} {...registration}>
        {children}
      </select>
    </FieldShell>
  );
}

export function CheckboxField({
  label,
  hint,
  registration,
  ...rest
}: { label: ReactNode; hint?: ReactNode; registration: UseFormRegisterReturn } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  keyof UseFormRegisterReturn | 'id' | 'type'
>) {
  const id = useId();
  return (
    <label className="checkbox" htmlFor={id}>
      <input id={id} type="checkbox" aria-describedby={hint ? `${id}-hint` : undefined} {...rest} {...registration} />
      <span>
        <span>{label}</span>
        {hint ? (
          <span className="field-hint block" id={`${id}-hint`}>
            {hint}
          </span>
        ) : null}
      </span>
    </label>
  );
}
