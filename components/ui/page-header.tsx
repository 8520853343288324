import Link from 'next/link';
import type { ReactNode } from 'react';

export function PageHeader({
  title,
  description,
  actions,
  back,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  back?: { href: string; label: string };
}) {
  return (
    <div className="page-header">
      <div>
        {back ? (
          <div className="breadcrumb">
            <Link href={back.href}>← {back.label}</Link>
          </div>
        ) : null}
        <h1>{title}</h1>
        {description ? <p className="muted">{description}</p> : null}
      </div>
      {actions ? <div className="row">{actions}</div> : null}
    </div>
  );
}

export function NoAccess({ what }: { what: string }) {
  return (
    <div className="card">
      <div className="card-body stack-sm">
        <h1>No access</h1>
        <p className="muted">Your account does not have permission to view {what}. Ask an administrator of this realm if you need it.</p>
        <p>
          <Link href="/console">Back to the overview</Link>
        </p>
      </div>
    </div>
  );
}
