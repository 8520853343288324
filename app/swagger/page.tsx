import type { Metadata } from 'next';
import { openApiDocument } from '@/lib/api/openapi-document';
import type { Operation, PathItem } from '@/lib/http/openapi';
import { JsonView } from './json-view';
import { OperationView } from './operation-view';
import styles from './swagger.module.css';

// GET /swagger: the OpenAPI document as a readable reference, rendered on the server from the same
// document /swagger/v1/swagger.json serves. No client script and no external assets: anchors and
// <details> give the navigation.

export const metadata: Metadata = { title: 'Gatehouse API reference' };

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Entry = { method: string; path: string; op: Operation };

function operationsByTag(paths: Record<string, PathItem>): Map<string, Entry[]> {
  const byTag = new Map<string, Entry[]>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHOD_ORDER) {
      const op = item[method];
      if (!op) continue;
      for (const tag of op.tags.length ? op.tags : ['Other']) {
        const list = byTag.get(tag) ?? [];
        list.push({ method, path, op });
        byTag.set(tag, list);
      }
    }
  }
  for (const list of byTag.values())
    list.sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method as never) - METHOD_ORDER.indexOf(b.method as never));
  return byTag;
}

const tagAnchor = (tag: string) => `tag-${tag.replace(/[^A-Za-z0-9]+/g, '-')}`;

export default function SwaggerPage() {
  const doc = openApiDocument();
  const byTag = operationsByTag(doc.paths);
  const tags = [...doc.tags.map((t) => t.name), ...[...byTag.keys()].filter((t) => !doc.tags.some((d) => d.name === t))];
  return (
    <div className={styles.layout}>
      <nav className={styles.nav} aria-label="Operations">
        <p className={styles.navTitle}>
          {doc.info.title} API <span className={styles.muted}>v{doc.info.version}</span>
        </p>
        <a href="/swagger/v1/swagger.json">swagger.json</a>
        {tags.map((tag) => (
          <div key={tag}>
            <a className={styles.navTag} href={`#${tagAnchor(tag)}`}>
              {tag}
            </a>
            <ul className={styles.navList}>
              {(byTag.get(tag) ?? []).map((e) => (
                <li key={`${e.method} ${e.path}`}>
                  <a href={`#${e.op.operationId}`}>
                    <span className={`${styles.methodSmall} ${styles[`method_${e.method}`] ?? ''}`}>{e.method.toUpperCase()}</span> {e.path}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <a className={styles.navTag} href="#components">
          Schemas
        </a>
      </nav>
      <main className={styles.main}>
        <header>
          <h1>
            {doc.info.title} API <span className={styles.muted}>{doc.info.version}</span>
          </h1>
          <p>{doc.info.description}</p>
          <p className={styles.muted}>
            OpenAPI {doc.openapi} · server <code>{doc.servers.map((s) => s.url).join(', ')}</code> · machine-readable:{' '}
            <a href="/swagger/v1/swagger.json">/swagger/v1/swagger.json</a>
          </p>
        </header>
        {tags.map((tag) => (
          <section key={tag} id={tagAnchor(tag)}>
            <h2>{tag}</h2>
            {(byTag.get(tag) ?? []).map((e) => (
              <OperationView key={`${e.method} ${e.path}`} method={e.method} path={e.path} op={e.op} doc={doc} />
            ))}
          </section>
        ))}
        <section id="components">
          <h2>Schemas</h2>
          {Object.entries(doc.components.schemas).map(([name, schema]) => (
            <details key={name} id={`schema-${name}`} className={styles.component} open>
              <summary>
                <code>{name}</code>
              </summary>
              <JsonView value={schema} />
            </details>
          ))}
          <h2>Error responses</h2>
          {Object.entries(doc.components.responses).map(([name, response]) => (
            <details key={name} id={`response-${name}`} className={styles.component} open>
              <summary>
                <code>{name}</code>
              </summary>
              <JsonView value={response} />
            </details>
          ))}
          <h2>Security schemes</h2>
          <JsonView value={doc.components.securitySchemes} />
        </section>
      </main>
    </div>
  );
}
