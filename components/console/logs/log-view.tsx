'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, listParams } from '@/components/data/api';
import { QueryState, formatDate } from '@/components/ui/query-state';
import type { logEntrySchema } from '@/lib/domain/audit/schemas';
import type { WireOf } from '@/lib/http/wire';

export type LogEntry = WireOf<typeof logEntrySchema>;

function detailText(detail: unknown): string {
  if (detail === undefined || detail === null || detail === '') return '';
  if (typeof detail === 'string') {
    try {
      return JSON.stringify(JSON.parse(detail), null, 2);
    } catch {
      return detail;
    }
  }
  return JSON.stringify(detail, null, 2);
}

/** A read-only, filterable log (spec 4.7 "Logs"): the realm's security log or the platform audit. */
export function LogView({ endpoint, showRealm }: { endpoint: '/api/admin/auth-log' | '/api/admin/platform-audit'; showRealm?: boolean }) {
  const id = useId();
  const [draft, setDraft] = useState({ category: '', eventType: '' });
  const [filter, setFilter] = useState({ category: '', eventType: '', limit: 100 });
  const log = useQuery({
    queryKey: ['logs', endpoint, filter],
    queryFn: ({ signal }) => api<LogEntry[]>(`${endpoint}${listParams(filter)}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  return (
    <div className="card">
      <form
        className="toolbar"
        role="search"
        aria-label="Filter the log"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter((f) => ({ ...f, category: draft.category.trim(), eventType: draft.eventType.trim() }));
        }}
      >
        <label className="visually-hidden" htmlFor={`${id}-category`}>
          Category
        </label>
        <input
          id={`${id}-category`}
          className="input"
          placeholder="Category (e.g. Authentication)"
          value={draft.category}
          onChange={(e) => setDraft({ ...draft, category: e.target.value })}
        />
        <label className="visually-hidden" htmlFor={`${id}-type`}>
          Event type
        </label>
        <input
          id={`${id}-type`}
          className="input"
          placeholder="Event type"
          value={draft.eventType}
          onChange={(e) => setDraft({ ...draft, eventType: e.target.value })}
        />
        <label className="visually-hidden" htmlFor={`${id}-limit`}>
          Number of entries
        </label>
        <select id={`${id}-limit`} className="select" value={filter.limit} onChange={(e) => setFilter({ ...filter, limit: Number(e.target.value) })}>
          {[50, 100, 250, 1000].map((n) => (
            <option key={n} value={n}>
              Latest {n}
            </option>
          ))}
        </select>
        <button type="submit" className="btn">
          Filter
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => log.refetch()} disabled={log.isFetching}>
          {log.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </form>
      <QueryState isPending={log.isPending} error={log.error} onRetry={() => log.refetch()}>
        {log.data && log.data.length === 0 ? (
          <p className="empty">No entries{filter.category || filter.eventType ? ' match this filter' : ' yet'}.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Event</th>
                  <th scope="col">Outcome</th>
                  {showRealm ? <th scope="col">Realm</th> : <th scope="col">User</th>}
                  <th scope="col">Address</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {log.data?.map((e) => {
                  const detail = detailText(e.Detail);
                  return (
                    <tr key={e.Id}>
                      <td className="small muted">{formatDate(e.CreatedAt)}</td>
                      <td>
                        <div className="mono small">{e.EventType}</div>
                        <div className="muted small">{e.Category}</div>
                      </td>
                      <td>
                        {e.Success === undefined ? (
                          '—'
                        ) : e.Success ? (
                          <span className="badge badge-success">Success</span>
                        ) : (
                          <span className="badge badge-danger">Failure</span>
                        )}
                      </td>
                      <td className="small">{showRealm ? (e.RealmSlug ?? e.ActorRealm ?? '—') : (e.UserName ?? '—')}</td>
                      <td className="small mono">{e.IpAddress ?? '—'}</td>
                      <td className="small">
                        {detail ? (
                          <details>
                            <summary>Show</summary>
                            <pre className="mono small pre">{detail}</pre>
                          </details>
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
    </div>
  );
}
