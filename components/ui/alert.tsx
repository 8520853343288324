import type { ReactNode, Ref } from 'react';

type Tone = 'info' | 'danger' | 'success' | 'warning';

export function Alert({
  tone = 'info',
  title,
  children,
  ref,
  live = tone === 'danger' ? 'assertive' : 'polite',
}: {
  tone?: Tone;
  title?: ReactNode;
  children?: ReactNode;
  ref?: Ref<HTMLDivElement>;
  live?: 'polite' | 'assertive' | 'off';
}) {
  return (
    <div ref={ref} className={`alert alert-${tone}`} role={tone === 'danger' ? 'alert' : 'status'} aria-live={live} tabIndex={-1}>
      <div className="stack-sm">
        {title ? <div className="alert-title">{title}</div> : null}
        {children}
      </div>
    </div>
  );
}

/** The summary of a failed submit (see useProblem); focusable so it can be announced. */
export function ErrorSummary({ summary, ref }: { summary: { title: string; items: string[] } | null; ref?: Ref<HTMLDivElement> }) {
  if (!summary) return null;
  return (
    <Alert tone="danger" ref={ref} title={summary.title}>
      {summary.items.length ? (
        <ul>
          {summary.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}
