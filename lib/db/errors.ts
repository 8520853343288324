// Recognising storage failures that map to client errors, across both engines and the driver
// adapters (which report unique violations as P2002 with the target in meta or the message).
export function isUniqueViolation(e: unknown, field?: string): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { code?: string; message?: string; meta?: Record<string, unknown> };
  if (err.code !== 'P2002') return false;
  if (!field) return true;
  const text = JSON.stringify(err.meta ?? {}) + (err.message ?? '');
  return text.toLowerCase().includes(field.toLowerCase());
}
