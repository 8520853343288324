import { AppError } from '../errors/app-error';

/**
 * Decodes one percent-encoded path segment. A malformed escape (`%E0%A4%A`, `%zz`) is the client's
 * mistake: a 400 naming the parameter, never the URIError decodeURIComponent throws.
 */
export function decodePathSegment(raw: string, name: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError('Validation.Failed', { detail: 'The request path is not valid.', errors: { [name]: ['Malformed percent-encoding.'] } });
  }
}

/**
 * Refuses a request path with a malformed escape before anything routes it: Next answers a bare
 * 500 when it cannot decode a dynamic segment, and the engine's router would throw likewise.
 */
export function assertWellFormedPath(pathname: string): void {
  decodePathSegment(pathname, 'path');
}
