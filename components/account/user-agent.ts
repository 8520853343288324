// A friendly name for the device behind a session ("Chrome on Linux"), from the User-Agent header
// the session was opened with. Deliberately tiny (no dependency): it only has to let a person tell
// their sessions apart, not identify every browser. Order matters, because user agents borrow each
// other's tokens (Edge and Opera say "Chrome", Chrome says "Safari", Android says "Linux", iOS says
// "Mac OS X").

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\b(Chrome|CriOS)\//, 'Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\b(Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

function first(table: [RegExp, string][], ua: string): string | null {
  return table.find(([re]) => re.test(ua))?.[1] ?? null;
}

/** "Chrome on Linux", "Safari on iOS", "curl", or "Unknown browser" when nothing can be told. */
export function describeUserAgent(ua: string | null | undefined): string {
  const text = ua?.trim() ?? '';
  if (!text) return 'Unknown browser';
  const browser = first(BROWSERS, text);
  const system = first(SYSTEMS, text);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `Browser on ${system}`;
  // A program rather than a browser (curl/8.5.0, okhttp/4.12): its product name is the best guess.
  const product = /^([A-Za-z][\w.-]{0,39})\//.exec(text)?.[1];
  return product && product !== 'Mozilla' ? product : 'Unknown browser';
}
