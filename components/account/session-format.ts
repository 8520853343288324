// Words for the sessions section: how long ago something happened, and how a session signed in.
// Pure, so they are tested beside this file; `now` is a parameter so the output is predictable.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

// English like the rest of the interface; `numeric: 'auto'` gives "yesterday" rather than "1 day ago".
const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "just now", "5 minutes ago", "yesterday", "in 3 weeks"; the ISO text itself when unreadable. */
export function relativeTime(iso: string, now: number): string {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((at - now) / 1000);
  // Clocks of server and browser differ a little: a few seconds either way is "just now".
  if (Math.abs(seconds) < 60) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

// OIDC `amr` values (RFC 8176) as stored on a session (lib/domain/auth/sign-in.ts AuthMethod).
const METHOD_LABELS: Record<string, string> = {
  pwd: 'password',
  otp: 'one-time code',
  mail: 'e-mail link',
  hwk: 'passkey',
  fed: 'external provider',
};

/** "password and one-time code"; unknown values are left out ('user' is a passkey detail). */
export function methodsLabel(methods: readonly string[]): string | null {
  const words = [...new Set(methods.map((m) => METHOD_LABELS[m]).filter((w): w is string => Boolean(w)))];
  if (!words.length) return null;
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
