'use client';
import { useMutation } from '@tanstack/react-query';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { consistencyReportSchema, rebuildReportSchema } from '@/lib/domain/projections/schemas';
import type { WireOf } from '@/lib/http/wire';

// Maintenance (spec 4.7): the realm keeps copies derived from its data (application addresses,
// cached settings and permissions, the sign-in engine's cache). The check compares them with the
// data; rebuilding recomputes them. Neither changes the data itself.

type Check = WireOf<typeof consistencyReportSchema>;
type Rebuild = WireOf<typeof rebuildReportSchema>;

/** Names an administrator recognises for the stores the API reports. */
const STORE_LABELS: Record<string, string> = {
  ApplicationDomains: 'Application addresses',
  RealmCache: 'Realm record cache',
  RealmSettings: 'Realm settings cache',
  AppSettings: 'Application settings cache',
  GroupGraph: 'Groups and permissions cache',
  OAuthEngine: 'Sign-in engine cache',
};

export function MaintenanceCard() {
  const check = useMutation({ mutationFn: () => api<Check>('/api/admin/projections/consistency-check') });
  const rebuild = useMutation({ mutationFn: () => api<Rebuild>('/api/admin/projections/rebuild', { method: 'POST' }) });
  const busy = check.isPending || rebuild.isPending;
  const report = rebuild.data ?? check.data;
  const failure = check.error ?? rebuild.error;
  return (
    <section className="card" aria-labelledby="maintenance-heading">
      <div className="card-body stack-sm">
        <h2 id="maintenance-heading">Maintenance</h2>
        <p className="muted small">
          The realm keeps copies derived from its data: application addresses, cached settings and permissions, the sign-in engine’s cache. Check compares them
          with the data; rebuild recomputes them. Your data is not changed.
        </p>
        <div className="row">
          <Button
            busy={check.isPending}
            busyLabel="Checking…"
            disabled={busy}
            onClick={() => {
              rebuild.reset();
              check.mutate();
            }}
          >
            Check consistency
          </Button>
          <Button
            busy={rebuild.isPending}
            busyLabel="Rebuilding…"
            disabled={busy}
            onClick={() => {
              check.reset();
              rebuild.mutate();
            }}
          >
            Rebuild
          </Button>
        </div>
        {failure ? <Alert tone="danger" title={problemMessage(failure)} /> : null}
        {report ? (
          <Alert
            tone={report.Consistent ? 'success' : 'warning'}
            title={
              report.Consistent ? (rebuild.data ? 'Rebuilt: everything is consistent.' : 'Everything is consistent.') : 'Some copies differ from the data.'
            }
          >
            <ul className="stack-sm" aria-label="Stores">
              {report.Stores.map((s) => {
                const changes = 'Changes' in s ? (s.Changes as string[]) : [];
                return (
                  <li key={s.Name}>
                    <strong>{STORE_LABELS[s.Name] ?? s.Name}</strong>: {s.Consistent ? 'consistent' : 'differs'}
                    {[...changes, ...s.Differences].length ? (
                      <ul>
                        {changes.map((c) => (
                          <li key={`c-${c}`} className="small">
                            {c}
                          </li>
                        ))}
                        {s.Differences.map((d) => (
                          <li key={`d-${d}`} className="small">
                            {d}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </Alert>
        ) : null}
      </div>
    </section>
  );
}
