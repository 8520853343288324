import type { ReactNode } from 'react';
import { RealmBrand } from './realm-brand';

/**
 * The frame of the pages end users see: the realm's branding (product name and logo, RealmBrand)
 * above one calm card.
 */
export function HostedShell({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="hosted" id="main">
      <div className="card hosted-card">
        <div className="card-body">
          <div className="hosted-brand">
            <RealmBrand />
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
