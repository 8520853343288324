import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { QueryProvider } from '@/components/data/query-provider';
import { brandStyle } from '@/lib/web/brand-style';
import { appInfo } from '@/lib/domain/realms/app-info';
import { pageContext, pageNonce } from '@/lib/http/page-context';
import './globals.css';

// Every page belongs to the realm its Host selects: the title and the brand colour are the realm's
// (spec 4.7 app-info). Reading the request makes every page dynamic, which the CSP nonce needs.
export async function generateMetadata(): Promise<Metadata> {
  const info = await appInfo(await pageContext());
  return { title: { default: info.DisplayName, template: `%s · ${info.DisplayName}` }, robots: { index: false, follow: false } };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const info = await appInfo(await pageContext());
  const nonce = await pageNonce();
  return (
    <html lang="en">
      <head>
        <style nonce={nonce}>{brandStyle(info.Branding.PrimaryColor)}</style>
      </head>
      <body>
        <QueryProvider>{children}</QueryProvider>
      </body>
    </html>
  );
}
