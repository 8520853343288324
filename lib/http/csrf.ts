import { AppError } from '../errors/app-error';
import { normalizeHost } from '../realm/host';

// CSRF defence for cookie-authenticated writes. Session cookies are SameSite=Lax and host-only, but
// realms on sibling subdomains are "same-site" to each other, so SameSite alone is not enough:
// a browser request that changes state must come from the same origin as the Host it targets.
// Browsers always send Origin on cross-origin POST/PUT/PATCH/DELETE and Sec-Fetch-Site on all
// modern requests; clients that send neither are not browsers and carry no ambient cookie risk.
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function assertSameOrigin(request: Request): void {
  if (SAFE.has(request.method)) return;
  const host = normalizeHost(request.headers.get('host'));
  const origin = request.headers.get('origin');
  if (origin && origin !== 'null') {
    let originHost: string | null = null;
    try {
      originHost = normalizeHost(new URL(origin).host);
    } catch {
      originHost = null;
    }
    if (!originHost || originHost !== host) throw new AppError('Request.CsrfRejected');
    return;
  }
  if (origin === 'null') throw new AppError('Request.CsrfRejected');
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') throw new AppError('Request.CsrfRejected');
}
