// The brand mark's initials; the brand colour itself is lib/web/brand-style.ts.
/** Up to two initials for the brand mark and avatars. */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s._@-]+/)
    .filter(Boolean);
  const letters = words.length > 1 ? words[0][0] + words[1][0] : (words[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}
