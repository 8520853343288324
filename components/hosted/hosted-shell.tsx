import type { ReactNode } from 'react';
import { initials } from '@/components/ui/brand';

/** The frame of the pages end users see: the realm's name and mark above one calm card. */
export function HostedShell({ realmName, title, subtitle, children, footer }: {
  realmName: string;
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className="hosted" id="main">
      <div className="card hosted-card">
        <div className="card-body">
          <div className="hosted-brand">
            <div className="brand-mark" aria-hidden="true">
              {initials(realmName)}
            </div>
            <div className="muted small">{realmName}</div>
            <h1>{title}</h1>
            {subtitle ? <p className="muted">{subtitle}</p> : null}
          </div>
          {children}
        </div>
      </div>
      <p className="hosted-footer">{footer ?? 'Protected by Gatehouse'}</p>
    </main>
  );
}
