import { safeContinuation } from '@/lib/web/continuation';

// The `?redirect=` continuation of the sign-in pages (spec 4.1): the one validator of
// lib/web/continuation.ts (a relative path on this realm's origin), minus the sign-in pages
// themselves, with a fallback.
const SIGN_IN_PAGES = /^\/(login|logged-out|bootstrap|register|forgot-password|reset-password|verify-email|verify-profile-email)(\/|$|\?|#)/;

export function safeRedirect(raw: string | string[] | null | undefined, fallback = '/console'): string {
  const path = safeContinuation(Array.isArray(raw) ? raw[0] : raw);
  return path && !SIGN_IN_PAGES.test(path) ? path : fallback;
}
