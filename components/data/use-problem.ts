'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, problemMessage } from './api';

export type Summary = { title: string; items: string[] };

/** A field path of the API in words for the summary: `Jit.DefaultGroupIds` -> "Jit, default group ids", `Domains.1` -> "Domains, item 2". */
export function fieldWords(path: string): string {
  // A JSON Pointer into an uploaded document (a manifest's `/Manifest/Groups/3/Roles/0`) is shown as it is.
  if (path.startsWith('/')) return path;
  const words = path.split('.').map((part) => {
    if (/^\d+$/.test(part)) return `item ${Number(part) + 1}`;
    return part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  });
  const [first = '', ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(', ');
}

/**
 * Shows a failed request on a form: field errors of a problem (`errors: { Field: [..] }`) go next
 * to the matching fields (names compared case-insensitively; `InitialAdmin.Email` and `Domains.0`
 * style paths too), everything else into a summary that takes focus so screen readers announce it.
 */
export function useProblem<T extends FieldValues>(setError: UseFormSetError<T>, fields: readonly Path<T>[]) {
  const [summary, setSummary] = useState<Summary | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const focusPending = useRef(false);

  useEffect(() => {
    if (summary && focusPending.current) {
      focusPending.current = false;
      summaryRef.current?.focus();
    }
  }, [summary]);

  const report = useCallback(
    (error: unknown, options: { messages?: Partial<Record<string, string>>; codeFields?: Partial<Record<string, Path<T>>>; focusSummary?: boolean } = {}) => {
      const { messages = {}, codeFields = {}, focusSummary = true } = options;
      const byLower = new Map(fields.map((f) => [f.toLowerCase(), f]));
      const leftover: string[] = [];
      let placed = 0;
      if (error instanceof ApiError && error.problem.errors) {
        for (const [key, msgs] of Object.entries(error.problem.errors)) {
          const lower = key.toLowerCase();
          // "Domains.0" -> "Domains"; "InitialAdmin.Email" stays when the form has it.
          const field = byLower.get(lower) ?? byLower.get(lower.replace(/\.\d+$/, '')) ?? byLower.get(lower.split('.')[0]);
          const text = (msgs ?? []).join(' ');
          if (field) {
            setError(field, { type: 'server', message: text }, { shouldFocus: placed === 0 });
            placed++;
          } else {
            leftover.push(key === '$' ? text : `${fieldWords(key)}: ${text}`);
          }
        }
      }
      const code = error instanceof ApiError ? error.code : undefined;
      const custom = code ? messages[code] : undefined;
      // A named error that belongs to one field (Realm.SlugTaken -> Slug) is shown there.
      const codeField = code ? codeFields[code] : undefined;
      if (codeField && placed === 0 && error instanceof ApiError) {
        const p = error.problem;
        setError(codeField, { type: 'server', message: custom ?? (p.detail && p.detail !== p.title ? `${p.title} ${p.detail}` : p.title) }, { shouldFocus: true });
        setSummary(null);
        return;
      }
      if (placed > 0 && leftover.length === 0 && !custom) {
        setSummary(null);
        return;
      }
      focusPending.current = placed === 0 && focusSummary;
      setSummary({ title: custom ?? (placed > 0 ? 'Some fields need attention.' : problemMessage(error)), items: leftover });
    },
    [fields, setError],
  );

  const clear = useCallback(() => setSummary(null), []);
  return { summary, summaryRef, report, clear };
}
