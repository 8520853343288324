'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

export type SideNavSection = { heading: string; items: { href: string; label: string }[] };

/** The console's navigation; the current section is marked with aria-current. */
export function SideNav({ sections }: { sections: SideNavSection[] }) {
  const pathname = usePathname();
  const current = (href: string) => (href === '/console' ? pathname === href : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <nav aria-label="Console">
      {sections.map((section) => (
        <div className="sidenav-section" key={section.heading}>
          <div className="sidenav-heading" aria-hidden="true">
            {section.heading}
          </div>
          <ul aria-label={section.heading}>
            {section.items.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
