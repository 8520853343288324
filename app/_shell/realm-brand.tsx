// Reads the realm's branding on the server, so it lives in app/ with the shells that show it:
// components/ only render what they are given (docs/architecture.md "Layers").
import { initials } from '@/components/ui/brand';
import { safeLogoUrl } from '@/lib/domain/realm-settings/logo-url';
import { appInfo } from '@/lib/domain/realms/app-info';
import { pageContext } from '@/lib/http/page-context';

/**
 * The realm's branding (realm settings `Branding.ProductName` and `LogoUrl`, the same the mail uses)
 * on every page people see: the hosted pages' card (HostedShell) and the console and account header
 * (ConsoleShell). Server-rendered; the logo is only ever an <img> source, never markup, and the
 * pages' CSP allows it (img-src, lib/web/security-headers.ts).
 */
export async function RealmBrand({ size = 'md' }: { size?: 'sm' | 'md' }) {
  const { Branding } = await appInfo(await pageContext());
  const name = Branding.ProductName;
  const logo = safeLogoUrl(Branding.LogoUrl);
  const markClass = size === 'sm' ? 'brand-mark brand-mark-sm' : 'brand-mark';
  return (
    <>
      {logo ? (
        <img
          className={size === 'sm' ? 'brand-logo brand-logo-sm' : 'brand-logo'}
          src={logo}
          alt={`${name} logo`}
          data-testid="realm-logo"
          referrerPolicy="no-referrer"
        />
      ) : (
        <span className={markClass} aria-hidden="true">
          {initials(name)}
        </span>
      )}
      <span className={size === 'sm' ? undefined : 'muted small'} data-testid="realm-product-name">
        {name}
      </span>
    </>
  );
}
