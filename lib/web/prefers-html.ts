// Content negotiation for answers that exist both as a page and as a problem document (the unknown
// host, server.ts): a browser navigating gets HTML, an API client (or curl's `*/*`) gets JSON.

/** The q-value of each media range an Accept header names (RFC 9110 §12.5.1); a malformed q counts as 0. */
function mediaRanges(accept: string): Map<string, number> {
  const ranges = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (!type) continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(q.slice(2)) ? Number(q.slice(2)) : 0;
    ranges.set(type, Math.max(ranges.get(type) ?? 0, value));
  }
  return ranges;
}

/**
 * True when the Accept header names `text/html` (or XHTML) itself, acceptably, and at least as
 * strongly as any JSON type: what browsers send on a navigation. Wildcards alone mean JSON.
 */
export function prefersHtml(accept: string | string[] | undefined): boolean {
  if (!accept) return false;
  const ranges = mediaRanges(Array.isArray(accept) ? accept.join(',') : accept);
  const html = Math.max(ranges.get('text/html') ?? 0, ranges.get('application/xhtml+xml') ?? 0);
  const json = Math.max(ranges.get('application/json') ?? 0, ranges.get('application/problem+json') ?? 0);
  return html > 0 && html >= json;
}
