import { AppError } from '../../errors/app-error';
import { safeContinuation } from '../../web/continuation';

// The `Redirect` a forgot-password request carries through the mailed link to the reset (spec
// 4.1). It goes through the shared validator, and its answer must itself pass the validator
// unchanged: the validator resolves dot segments, and `/a/..//evil.test` resolves to the
// protocol-relative `//evil.test`, which a browser would follow to another host.

/** The safe continuation, or undefined when `value` is not one. Pure. */
export function resetContinuation(value: unknown): string | undefined {
  const once = safeContinuation(value);
  if (once === undefined) return undefined;
  return safeContinuation(once) === once ? once : undefined;
}

/** Absent stays absent; anything sent must be a safe continuation or the request is refused. */
export function requireResetContinuation(value: string | null | undefined): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const safe = resetContinuation(value);
  if (safe === undefined) throw new AppError('Continuation.Invalid', { errors: { Redirect: ['Use a path on this site that starts with a single "/".'] } });
  return safe;
}
