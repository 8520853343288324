import type { OpenApiDocument, Operation, Parameter } from '@/lib/http/openapi';
import type { JsonSchema } from '@/lib/http/openapi-schema';
import { anchorOfRef, JsonView } from './json-view';
import styles from './swagger.module.css';

// One operation of the reference page: method and path, what it needs (session, permission,
// control-plane host, rate limit), its parameters, request body and every answer with its schema.

type Props = { method: string; path: string; op: Operation; doc: OpenApiDocument };

/** A one-line summary of a parameter schema: `integer ≥ 1, default 25`. */
function schemaBrief(s: JsonSchema): string {
  const parts: string[] = [];
  const type = Array.isArray(s.type) ? s.type.join(' | ') : typeof s.type === 'string' ? s.type : Array.isArray(s.enum) ? 'enum' : 'any';
  parts.push(typeof s.format === 'string' ? `${type} (${s.format})` : type);
  if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (typeof s.minimum === 'number') parts.push(`≥ ${s.minimum}`);
  if (typeof s.maximum === 'number' && s.maximum < Number.MAX_SAFE_INTEGER) parts.push(`≤ ${s.maximum}`);
  if (typeof s.maxLength === 'number') parts.push(`at most ${s.maxLength} characters`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(', ');
}

function authLabel(op: Operation): string {
  if (op.security.length === 0) return 'anonymous';
  if (op.security.some((req) => Object.keys(req).length === 0)) return 'optional session (sessionCookie)';
  return 'session required (sessionCookie)';
}

function Parameters({ params }: { params: Parameter[] }) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th>Name</th>
          <th>In</th>
          <th>Required</th>
          <th>Schema</th>
        </tr>
      </thead>
      <tbody>
        {params.map((p) => (
          <tr key={`${p.in}:${p.name}`}>
            <td>
              <code>{p.name}</code>
            </td>
            <td>{p.in}</td>
            <td>{p.required ? 'yes' : 'no'}</td>
            <td>
              {schemaBrief(p.schema)}
              {p.description ? <div className={styles.muted}>{p.description}</div> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Responses({ op, doc }: { op: Operation; doc: OpenApiDocument }) {
  return (
    <div className={styles.responses}>
      {Object.entries(op.responses).map(([status, r]) => {
        const ref = '$ref' in r ? r.$ref : undefined;
        const resolved = (ref ? doc.components.responses[ref.split('/').pop() ?? ''] : r) as {
          description?: string;
          content?: Record<string, { schema: JsonSchema }>;
        };
        const anchor = ref ? anchorOfRef(ref) : undefined;
        const content = Object.entries(resolved?.content ?? {});
        return (
          <div key={status} className={styles.response}>
            <div className={styles.responseHead}>
              <span className={Number(status) < 400 ? styles.statusOk : styles.statusError}>{status}</span>
              <span>{resolved?.description ?? ''}</span>
              {anchor ? (
                <a className={styles.muted} href={`#${anchor}`}>
                  {ref}
                </a>
              ) : null}
            </div>
            {!ref &&
              content.map(([type, media]) => (
                <details key={type} open={Number(status) < 300}>
                  <summary>{type}</summary>
                  <JsonView value={media.schema} />
                </details>
              ))}
          </div>
        );
      })}
    </div>
  );
}

export function OperationView({ method, path, op, doc }: Props) {
  return (
    <article id={op.operationId} className={styles.operation}>
      <h3 className={styles.opTitle}>
        <span className={`${styles.method} ${styles[`method_${method}`] ?? ''}`}>{method.toUpperCase()}</span>
        <code className={styles.path}>{path}</code>
        <a className={styles.anchor} href={`#${op.operationId}`} aria-label="Link to this operation">
          #
        </a>
      </h3>
      <p>{op.summary}</p>
      <dl className={styles.facts}>
        <dt>operationId</dt>
        <dd>
          <code>{op.operationId}</code>
        </dd>
        <dt>Authentication</dt>
        <dd>{authLabel(op)}</dd>
        {op['x-permission'] ? (
          <>
            <dt>Permission</dt>
            <dd>
              <code>{op['x-permission']}</code> in App <code>{op['x-permission-app']}</code>
            </dd>
          </>
        ) : null}
        {op['x-control-plane-only'] ? (
          <>
            <dt>Host</dt>
            <dd>control plane only (a bare 404 elsewhere)</dd>
          </>
        ) : null}
        {op['x-rate-limit'] ? (
          <>
            <dt>Rate limit</dt>
            <dd>
              policy <code>{op['x-rate-limit'].policy}</code>: <code>{JSON.stringify(op['x-rate-limit'].limits)}</code>
            </dd>
          </>
        ) : null}
      </dl>
      {op.parameters?.length ? (
        <>
          <h4>Parameters</h4>
          <Parameters params={op.parameters} />
        </>
      ) : null}
      {op.requestBody ? (
        <>
          <h4>Request body {op.requestBody.required ? '' : '(optional)'}</h4>
          {Object.entries(op.requestBody.content).map(([type, media]) => (
            <details key={type} open>
              <summary>{type}</summary>
              <JsonView value={media.schema} />
            </details>
          ))}
        </>
      ) : null}
      <h4>Responses</h4>
      <Responses op={op} doc={doc} />
    </article>
  );
}
