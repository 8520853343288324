import { errorCatalog, type ErrorCode } from './catalog';

/**
 * A failure the client may know about. Domain code throws it with a catalog code; the HTTP layer
 * turns it into problem+json. `detail` must be safe to show (no secrets, no internal messages).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail?: string;
  readonly errors?: Record<string, string[]>;
  /** Extra top-level members of the problem body (e.g. the list of blockers of a 409). */
  readonly extensions?: Record<string, unknown>;
  /** Set on 429s: the Retry-After header value in seconds. */
  readonly retryAfterSeconds?: number;
  /** When true, the problem body carries no `code` (spec 7: hidden surfaces answer a bare 404). */
  readonly anonymous: boolean;

  constructor(
    code: ErrorCode,
    options: {
      detail?: string;
      errors?: Record<string, string[]>;
      extensions?: Record<string, unknown>;
      retryAfterSeconds?: number;
      anonymous?: boolean;
    } = {},
  ) {
    super(options.detail ?? errorCatalog[code].title);
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalog[code].status;
    this.detail = options.detail;
    this.errors = options.errors;
    this.extensions = options.extensions;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.anonymous = options.anonymous ?? false;
  }
}

/** A bare 404 with no code: the answer for hidden surfaces and unknown resources (spec 7). */
export function notFound(): AppError {
  return new AppError('Request.NotFound', { anonymous: true });
}

export function validationError(errors: Record<string, string[]>, detail?: string): AppError {
  return new AppError('Validation.Failed', { errors, detail });
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError || (typeof e === 'object' && e !== null && (e as { name?: string }).name === 'AppError');
}
