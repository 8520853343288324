import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/account/sign-out-button';
import { initials } from '@/components/ui/brand';
import { RealmBrand } from './realm-brand';
import { hasConsoleAccess, visibleNav, type Viewer } from '@/components/console/permissions';
import { SideNav, type SideNavSection } from '@/components/console/side-nav';
import { LiveIndicator } from '@/components/realtime/live-indicator';
import { LiveProvider } from '@/components/realtime/live-provider';

export type ShellUser = Viewer & { UserName: string; Firstname?: string | null; Lastname?: string | null; RealmDisplayName: string };

/**
 * The console frame: realm and user on top, navigation limited to what the user may use. Someone
 * who administers nothing (an end user on their account page) gets the frame without the console:
 * no navigation, and the realm's name leads back to their account. `live` connects the page to the
 * hub and shows the connection's state.
 */
export function ConsoleShell({ user, live = false, children }: { user: ShellUser; live?: boolean; children: ReactNode }) {
  const admin = hasConsoleAccess(user);
  const items = visibleNav(user);
  const sections: SideNavSection[] = [{ heading: 'Realm', items: [{ href: '/console', label: 'Overview' }] }];
  for (const section of ['Directory', 'Integrations', 'Security', 'Platform'] as const) {
    const list = items.filter((i) => i.section === section);
    if (list.length) sections.push({ heading: section, items: list.map((i) => ({ href: i.href, label: i.label })) });
  }
  sections.push({ heading: 'You', items: [{ href: '/account', label: 'My account' }] });
  const name = [user.Firstname, user.Lastname].filter(Boolean).join(' ') || user.UserName;
  const shell = (
    <div className={admin ? 'shell' : 'shell shell-plain'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href={admin ? '/console' : '/account'} className="topbar-brand">
          <RealmBrand size="sm" />
          {user.IsControlPlane ? <span className="badge badge-brand badge-plain">Control plane</span> : null}
        </Link>
        <div className="topbar-user">
          {live ? <LiveIndicator /> : null}
          <Link href="/account" className="row" aria-label={`My account (${name})`}>
            <span className="avatar" aria-hidden="true">
              {initials(name)}
            </span>
            <span className="small">{name}</span>
          </Link>
          <SignOutButton size="sm" />
        </div>
      </header>
      {admin ? (
        <aside className="sidenav">
          <SideNav sections={sections} />
        </aside>
      ) : null}
      <main className="main" id="main" tabIndex={-1}>
        <div className="main-inner">{children}</div>
      </main>
    </div>
  );
  // The console refreshes live (docs/realtime.md); the account page does not connect.
  return live ? <LiveProvider>{shell}</LiveProvider> : shell;
}
