import type { applyResultSchema } from '@/lib/domain/manifests/schema';
import type { WireOf } from '@/lib/http/wire';

// The answer of POST /api/admin/realm-config/apply (and of a dry run), as the browser receives it.
export type ApplyResult = WireOf<typeof applyResultSchema>;

/** The JSON Pointer errors of a refused manifest (400 Validation.Failed), as lines people read. */
export function pointerErrors(errors: Record<string, string[]> | undefined): { pointer: string; message: string }[] {
  return Object.entries(errors ?? {}).map(([pointer, messages]) => ({ pointer: pointer || '/', message: messages.join(' ') }));
}

/** A manifest file's text as JSON, or the reason it is not. */
export function parseManifestText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (!text.trim()) return { ok: false, error: 'Upload a manifest file or paste its JSON first.' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: `This is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}
