import { NextResponse, type NextRequest } from 'next/server';
import { settings } from './lib/config/env';
import { pageCsp } from './lib/web/security-headers';

// Next 16's middleware (docs/architecture.md): thin on purpose. It sets the security headers of the
// HTML pages and sends anonymous visitors of the console and account pages to sign-in. It reads
// no database and decides no authorization: it only looks for the session cookie's presence; the
// pages and the API check the session itself. The matcher leaves out the API and static assets
// (a catch-all matcher costs about 40% of route throughput, docs/environment.md).

const SESSION_COOKIES = ['gatehouse_session', '__Host-gatehouse_session'];
const PROTECTED = /^\/(console|account)(\/|$)/;

export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const signedIn = SESSION_COOKIES.some((name) => Boolean(request.cookies.get(name)?.value));
  if (!signedIn && PROTECTED.test(pathname)) {
    const target = request.nextUrl.clone();
    target.pathname = '/login';
    target.search = `?redirect=${encodeURIComponent(pathname + search)}`;
    const response = NextResponse.redirect(target, 307);
    response.headers.set('cache-control', 'no-store');
    return response;
  }

  const nonce = btoa(crypto.randomUUID());
  const { production, publicScheme } = settings();
  const csp = pageCsp({ nonce, dev: !production, publicScheme, pathname });
  const requestHeaders = new Headers(request.headers);
  // server.ts strips client-sent x-gatehouse-* headers, so only this value can reach the pages.
  requestHeaders.set('x-gatehouse-nonce', nonce);
  // Lets a page whose session turned out to be stale send the visitor to sign-in and back here.
  requestHeaders.set('x-gatehouse-path', pathname + search);
  requestHeaders.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', csp);
  response.headers.set('cross-origin-opener-policy', 'same-origin');
  response.headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()');
  return response;
}

// Every page, present and future (the hosted pages, the console, the account area, /swagger, the
// 404 page): everything but the API, the engine's paths and Next's static assets, which render no
// HTML, nor the flag and entitlement routes (a catch-all matcher would cost the API routes their throughput, docs/environment.md).
export const config = {
  matcher: ['/((?!api/|flags/|entitlements/|connect/|saml/|\\.well-known/|_next/static/|_next/image|favicon\\.ico|swagger/v1/|health).*)'],
};
