'use client';
import { Button } from '@/components/ui/button';
import type { ClientSession } from './account-types';
import { Ago } from './browser-sessions';

/** Applications signed in as the person (one row per grant), each with "Remove access". */
export function ConnectedApps({
  clients,
  now,
  pendingId,
  onRemove,
}: {
  clients: ClientSession[];
  now: number;
  pendingId: string | null;
  onRemove: (c: ClientSession) => void;
}) {
  return (
    <div className="stack-sm">
      <h3>Connected applications</h3>
      {clients.length ? (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Applications with access to your account</caption>
            <thead>
              <tr>
                <th scope="col">Application</th>
                <th scope="col">Can access</th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {clients.map((c) => (
                <tr key={c.Id}>
                  <td>
                    <strong>{c.ClientName}</strong>
                    {c.ClientName !== c.ClientId ? <div className="muted small mono">{c.ClientId}</div> : null}
                  </td>
                  <td>
                    {c.Scopes.length ? (
                      <ul className="chips account-scopes" aria-label={`What ${c.ClientName} can access`}>
                        {c.Scopes.map((s) => (
                          <li key={s} className="chip chip-static mono">
                            {s}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <span className="muted">Nothing beyond signing you in</span>
                    )}
                  </td>
                  <td>
                    <Ago iso={c.CreatedAt} now={now} />
                  </td>
                  <td className="actions">
                    <Button
                      variant="ghost"
                      size="sm"
                      busy={pendingId === c.Id}
                      busyLabel="Removing…"
                      aria-label={`Remove access for ${c.ClientName}`}
                      onClick={() => onRemove(c)}
                    >
                      Remove access
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No applications are signed in with your account.</p>
      )}
    </div>
  );
}
