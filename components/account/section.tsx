import type { ReactNode } from 'react';

/** One anchored card of the account page; the heading names the region for screen readers. */
export function AccountSection({
  id,
  title,
  description,
  children,
  actions,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="card account-section" id={id} aria-labelledby={`${id}-heading`} tabIndex={-1}>
      <div className="card-header row-between">
        <div>
          <h2 id={`${id}-heading`}>{title}</h2>
          {description ? <p className="muted small">{description}</p> : null}
        </div>
        {actions ? <div className="row">{actions}</div> : null}
      </div>
      <div className="card-body stack">{children}</div>
    </section>
  );
}
