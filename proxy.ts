import { NextResponse, type NextRequest } from 'next/server';

// Next 16's middleware (ARCHITECTURE.md): thin on purpose. It sets the security headers of the
// HTML pages and sends anonymous visitors of the console and account pages to sign-in. It reads
// no database and decides no authorization: it only looks for the session cookie's presence; the
// pages and the API check the session itself. The matcher names only page paths (a catch-all
// matcher costs about 40% of route throughput, ENVIRONMENT.md).

const SESSION_COOKIES = ['gatehouse_session', '__Host-gatehouse_session'];
const PROTECTED = /^\/(console|account)(\/|$)/;

function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    // Next puts the nonce on its own scripts when it finds it in the request's CSP header;
    // 'strict-dynamic' lets those scripts load the page's chunks. React's dev tooling needs eval.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // A nonce disables 'unsafe-inline', which the development error overlay needs.
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

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
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV !== 'production');
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

export const config = {
  matcher: ['/', '/login', '/bootstrap', '/logged-out', '/console/:path*', '/account/:path*'],
};
