import type { ApplyResult } from './types';

const GROUPS = [
  { key: 'Created', title: 'Created', tone: 'badge-success' },
  { key: 'Updated', title: 'Updated', tone: 'badge-brand' },
  { key: 'Deleted', title: 'Deleted', tone: 'badge-danger' },
] as const;

/** A plan or an applied result: the items by what happens to them (`kind:key`), and the unchanged count. */
export function PlanView({ result, applied }: { result: ApplyResult; applied: boolean }) {
  const changes = result.Created.length + result.Updated.length + result.Deleted.length;
  return (
    <div className="stack" data-testid={applied ? 'apply-result' : 'plan'}>
      {changes === 0 ? (
        <p>{applied ? 'Nothing changed: the realm already matched the manifest.' : 'Nothing to change: the realm already matches the manifest.'}</p>
      ) : null}
      {GROUPS.map(({ key, title, tone }) =>
        result[key].length ? (
          <section key={key} aria-label={`${title} (${result[key].length})`} className="stack-sm">
            <h3>
              {title} <span className={`badge ${tone}`}>{result[key].length}</span>
            </h3>
            <ul>
              {result[key].map((item) => (
                <li key={item} className="mono small">
                  {item}
                </li>
              ))}
            </ul>
          </section>
        ) : null,
      )}
      <p className="muted" data-testid="unchanged">
        Unchanged: {result.Unchanged}
      </p>
    </div>
  );
}
