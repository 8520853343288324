'use client';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/components/ui/query-state';
import type { BrowserSession } from './account-types';
import { methodsLabel, relativeTime } from './session-format';
import { describeUserAgent } from './user-agent';

/** A moment as "5 minutes ago", with the exact UTC time for machines and on hover. */
export function Ago({ iso, now }: { iso: string; now: number }) {
  return (
    <time dateTime={iso} title={formatDate(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}

/**
 * The button's accessible name says which session it ends: device, address and last activity are
 * all a person has to tell two "Chrome on Linux" rows apart.
 */
function signOutLabel(s: BrowserSession, now: number): string {
  const from = s.IpAddress ? ` from ${s.IpAddress}` : '';
  return `Sign out ${describeUserAgent(s.UserAgent)}${from}, last active ${relativeTime(s.LastSeenAt, now)}`;
}

/** The person's browser sessions, this one first, each other one with its own "Sign out". */
export function BrowserSessions({
  sessions,
  now,
  pendingId,
  othersBusy,
  onSignOut,
  onSignOutOthers,
}: {
  sessions: BrowserSession[];
  now: number;
  pendingId: string | null;
  othersBusy: boolean;
  onSignOut: (s: BrowserSession) => void;
  onSignOutOthers: () => void;
}) {
  // The server orders by last activity; this browser goes first so it is found at a glance.
  const rows = [...sessions].sort((a, b) => Number(b.IsCurrent) - Number(a.IsCurrent));
  const others = rows.filter((s) => !s.IsCurrent).length;
  return (
    <div className="stack-sm">
      <h3>Browsers</h3>
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">Browsers signed in to your account</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Address</th>
              <th scope="col">Last active</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => {
              const methods = methodsLabel(s.Methods);
              return (
                <tr key={s.Id}>
                  <td>
                    <div className="row" style={{ gap: 8 }}>
                      <strong>{describeUserAgent(s.UserAgent)}</strong>
                      {s.IsCurrent ? <span className="badge badge-brand">This browser</span> : null}
                    </div>
                    <div className="muted small">
                      Signed in <Ago iso={s.CreatedAt} now={now} />
                      {methods ? ` with ${methods}` : ''}
                    </div>
                  </td>
                  <td className="mono">{s.IpAddress ?? <span className="muted">Unknown</span>}</td>
                  <td>{s.IsCurrent ? 'Now' : <Ago iso={s.LastSeenAt} now={now} />}</td>
                  <td className="actions">
                    {s.IsCurrent ? null : (
                      <Button
                        variant="ghost"
                        size="sm"
                        busy={pendingId === s.Id}
                        busyLabel="Signing out…"
                        aria-label={signOutLabel(s, now)}
                        onClick={() => onSignOut(s)}
                      >
                        Sign out
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {others > 0 ? (
        <div>
          <Button busy={othersBusy} busyLabel="Signing out…" onClick={onSignOutOthers}>
            Sign out of all other browsers
          </Button>
        </div>
      ) : (
        <p className="muted small">You are signed in on this browser only.</p>
      )}
    </div>
  );
}
