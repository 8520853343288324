import type { ReactNode } from 'react';
import styles from './swagger.module.css';

// Pretty-printed JSON as React nodes (two-space indent, like JSON.stringify), where every
// `"$ref": "#/components/..."` is a link to that component on the page, so schemas are navigable.

/** The page anchor of a `#/components/<kind>/<name>` reference. */
export function anchorOfRef(ref: string): string | undefined {
  const m = /^#\/components\/(schemas|responses)\/(.+)$/.exec(ref);
  return m ? `${m[1] === 'schemas' ? 'schema' : 'response'}-${m[2]}` : undefined;
}

function render(value: unknown, indent: string, out: ReactNode[], key: { n: number }): void {
  const push = (text: string) => void out.push(text);
  if (Array.isArray(value)) {
    if (value.length === 0) return void push('[]');
    push('[\n');
    value.forEach((item, i) => {
      push(indent + '  ');
      render(item, indent + '  ', out, key);
      push(i < value.length - 1 ? ',\n' : '\n');
    });
    return void push(indent + ']');
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return void push('{}');
    push('{\n');
    entries.forEach(([k, v], i) => {
      push(`${indent}  `);
      out.push(
        <span key={key.n++} className={styles.jsonKey}>
          {JSON.stringify(k)}
        </span>,
      );
      push(': ');
      const anchor = k === '$ref' && typeof v === 'string' ? anchorOfRef(v) : undefined;
      if (anchor) {
        out.push(
          <a key={key.n++} href={`#${anchor}`} className={styles.jsonRef}>
            {JSON.stringify(v)}
          </a>,
        );
      } else {
        render(v, indent + '  ', out, key);
      }
      push(i < entries.length - 1 ? ',\n' : '\n');
    });
    return void push(indent + '}');
  }
  const cls = typeof value === 'string' ? styles.jsonString : styles.jsonLiteral;
  out.push(
    <span key={key.n++} className={cls}>
      {JSON.stringify(value)}
    </span>,
  );
}

export function JsonView({ value }: { value: unknown }) {
  const out: ReactNode[] = [];
  render(value, '', out, { n: 0 });
  return <pre className={styles.json}>{out}</pre>;
}
