'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { describeUserAgent } from '@/components/account/user-agent';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { QueryState, formatDate } from '@/components/ui/query-state';
import type { mySessionsSchema } from '@/lib/domain/sessions/schemas';
import type { WireOf } from '@/lib/http/wire';

type Sessions = WireOf<typeof mySessionsSchema>;
const sessionsKey = (id: string) => ['users', 'sessions', id] as const;

/**
 * Where the person is signed in (GET /api/admin/users/{id}/sessions, session:read): browsers and
 * applications. "Sign out everywhere" (session:write) ends all of them and revokes the tokens the
 * applications hold; it asks first.
 */
export function UserSessions({ userId, displayName, canWrite }: { userId: string; displayName: string; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const path = `/api/admin/users/${encodeURIComponent(userId)}/sessions`;
  const list = useQuery({ queryKey: sessionsKey(userId), queryFn: ({ signal }) => api<Sessions>(path, { signal }) });
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const liveRef = useRef<HTMLDivElement>(null);
  const signOut = useMutation({
    mutationFn: () => api(path, { method: 'DELETE' }),
    onSuccess: () => {
      setConfirming(false);
      setNotice(`${displayName} was signed out everywhere.`);
      void queryClient.invalidateQueries({ queryKey: sessionsKey(userId) });
      window.requestAnimationFrame(() => liveRef.current?.focus());
    },
  });
  const data = list.data;
  const none = data !== undefined && data.Sessions.length === 0 && data.ClientSessions.length === 0;

  return (
    <section className="card" aria-labelledby="sessions-heading">
      <div className="card-header">
        <h2 id="sessions-heading">Sessions</h2>
        {canWrite && data && !none ? (
          <Button
            variant="danger"
            size="sm"
            onClick={() => {
              signOut.reset();
              setNotice(null);
              setConfirming(true);
            }}
          >
            Sign out everywhere…
          </Button>
        ) : null}
      </div>
      <div className="card-body stack">
        <div ref={liveRef} aria-live="polite" aria-atomic="true" tabIndex={-1}>
          {notice ? <Alert tone="success" title={notice} live="off" /> : null}
        </div>
        <QueryState isPending={list.isPending} error={list.error} onRetry={() => list.refetch()}>
          {none ? <p className="muted">Not signed in anywhere.</p> : null}
          {data?.Sessions.length ? (
            <div className="table-wrap">
              <table className="table" aria-label="Browser sessions">
                <thead>
                  <tr>
                    <th scope="col">Browser</th>
                    <th scope="col">Address</th>
                    <th scope="col">Last active</th>
                    <th scope="col">Signed in</th>
                  </tr>
                </thead>
                <tbody>
                  {data.Sessions.map((s) => (
                    <tr key={s.Id}>
                      <td>
                        {describeUserAgent(s.UserAgent)}
                        {s.IsCurrent ? <span className="muted small"> (your session)</span> : null}
                        {s.Methods.length ? <div className="muted small">{s.Methods.join(', ')}</div> : null}
                      </td>
                      <td className="small mono">{s.IpAddress ?? '—'}</td>
                      <td className="small">{formatDate(s.LastSeenAt)}</td>
                      <td className="small">{formatDate(s.CreatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {data?.ClientSessions.length ? (
            <div className="table-wrap">
              <table className="table" aria-label="Applications">
                <thead>
                  <tr>
                    <th scope="col">Application</th>
                    <th scope="col">Access</th>
                    <th scope="col">Since</th>
                  </tr>
                </thead>
                <tbody>
                  {data.ClientSessions.map((c) => (
                    <tr key={c.Id}>
                      <td>
                        {c.ClientName}
                        <div className="muted small mono">{c.ClientId}</div>
                      </td>
                      <td>
                        <span className="chips">
                          {c.Scopes.map((scope) => (
                            <span key={scope} className="chip chip-static mono">
                              {scope}
                            </span>
                          ))}
                        </span>
                      </td>
                      <td className="small">{formatDate(c.CreatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </QueryState>
      </div>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => signOut.mutate()}
        title={`Sign ${displayName} out everywhere?`}
        confirmLabel="Sign out everywhere"
        busyLabel="Signing out…"
        busy={signOut.isPending}
        error={signOut.isError ? problemMessage(signOut.error) : null}
      >
        <p>Every browser session ends, and every application loses the access it was given: they have to sign in again.</p>
      </ConfirmDialog>
    </section>
  );
}
