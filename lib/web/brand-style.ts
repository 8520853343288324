// The realm's (or App's) brand colour as CSS custom properties, for the hosted pages (app/layout.tsx)
// and the engine's own pages (lib/oidc/pages.ts). Only a plain hex colour is accepted, so a
// stored value can never inject CSS; the text colour on it is chosen for contrast (WCAG luminance).
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const FALLBACK = '#1f4f8f';

function luminance(hex: string): number {
  const h = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (c) => c + c).slice(1) : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** `:root{--brand:<colour>;--brand-ink:<text colour on it>}`; the default blue for anything not a hex colour. */
export function brandStyle(color: string | null | undefined): string {
  const brand = color && HEX.test(color) ? color.toLowerCase() : FALLBACK;
  const ink = luminance(brand) > 0.45 ? '#111827' : '#ffffff';
  return `:root{--brand:${brand};--brand-ink:${ink}}`;
}
