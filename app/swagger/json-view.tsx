import type { ReactNode } from 'react';
import styles from './swagger.module.css';

// Pretty-printed JSON as React nodes (two-space indent, like JSON.stringify), where every
// `"$ref": "#/components/..."` is a link to that component on the page, so schemas are navigable.

/** The page anchor of a `#/components/<kind>/<name>` reference. */
export function anchorOfRef(ref: string): string | undefined {
  const m = /^#\/components\/(schemas|responses)\/(.+)$/.exec(ref);
  return m ? `${m[1] === 'schemas' ? 'schema' : 'response'}-${m[2]}` : undefined;
}

/**
 * Appends the JSON text of `value` to `out`: plain text runs, with each component `$ref` value as
 * a link. Runs are merged so the page stays light (one text node per run, not one per token).
 */
function render(value: unknown, indent: string, out: ReactNode[], text: { run: string }): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return void (text.run += '[]');
    text.run += '[\n';
    value.forEach((item, i) => {
      text.run += indent + '  ';
      render(item, indent + '  ', out, text);
      text.run += i < value.length - 1 ? ',\n' : '\n';
    });
    return void (text.run += indent + ']');
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return void (text.run += '{}');
    text.run += '{\n';
    entries.forEach(([k, v], i) => {
      text.run += `${indent}  ${JSON.stringify(k)}: `;
      const anchor = k === '$ref' && typeof v === 'string' ? anchorOfRef(v) : undefined;
      if (anchor) {
        out.push(text.run);
        text.run = '';
        out.push(
          <a key={out.length} href={`#${anchor}`} className={styles.jsonRef}>
            {JSON.stringify(v)}
          </a>,
        );
      } else {
        render(v, indent + '  ', out, text);
      }
      text.run += i < entries.length - 1 ? ',\n' : '\n';
    });
    return void (text.run += indent + '}');
  }
  text.run += JSON.stringify(value);
}

export function JsonView({ value }: { value: unknown }) {
  const out: ReactNode[] = [];
  const text = { run: '' };
  render(value, '', out, text);
  out.push(text.run);
  return <pre className={styles.json}>{out}</pre>;
}
