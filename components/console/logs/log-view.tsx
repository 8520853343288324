'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { api, listParams } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { QueryState, formatDate } from '@/components/ui/query-state';
import type { logEntrySchema } from '@/lib/domain/audit/schemas';
import type { userLookupSchema } from '@/lib/domain/users/schemas';
import type { WireOf } from '@/lib/http/wire';

export type LogEntry = WireOf<typeof logEntrySchema>;
type UserLookup = WireOf<typeof userLookupSchema>;

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

/** A day picked in a date input (local time) as the instant the API takes: the day's start or its last millisecond. */
function dayBoundary(day: string, edge: 'start' | 'end'): string | undefined {
  if (!day) return undefined;
  const d = new Date(`${day}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

type Person = { id: string; name: string };
type Filter = { category: string; eventType: string; from: string; to: string; limit: number; person: Person | null };

/**
 * A read-only, filterable log (spec 4.7 "Logs"): the realm's security log or the platform audit, by
 * category, event type and days; the security log also by person (what they did and what was done
 * to their account). `initialPerson` comes from a link on a person's page.
 */
export function LogView({
  endpoint,
  showRealm,
  initialPerson,
}: {
  endpoint: '/api/admin/auth-log' | '/api/admin/platform-audit';
  showRealm?: boolean;
  initialPerson?: Person;
}) {
  const id = useId();
  const byPerson = endpoint === '/api/admin/auth-log';
  const [draft, setDraft] = useState({ category: '', eventType: '', from: '', to: '', person: initialPerson?.name ?? '' });
  const [filter, setFilter] = useState<Filter>({ category: '', eventType: '', from: '', to: '', limit: 100, person: initialPerson ?? null });
  const [filterError, setFilterError] = useState<string | null>(null);
  const search = useDeferredValue(draft.person.trim());
  const people = useQuery({
    queryKey: ['users', 'lookup', search],
    queryFn: ({ signal }) => api<UserLookup[]>(`/api/user/lookup${listParams({ search })}`, { signal }),
    enabled: byPerson && search.length > 0 && search !== filter.person?.name,
    placeholderData: keepPreviousData,
  });
  const log = useQuery({
    queryKey: ['logs', endpoint, filter],
    queryFn: ({ signal }) =>
      api<LogEntry[]>(
        `${endpoint}${listParams({
          category: filter.category,
          eventType: filter.eventType,
          from: dayBoundary(filter.from, 'start'),
          to: dayBoundary(filter.to, 'end'),
          limit: filter.limit,
          userId: filter.person?.id,
        })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });

  /** The person typed: kept when unchanged, else the suggestion of that user name, else the only suggestion. */
  const resolvePerson = (): Person | null | 'unknown' => {
    const typed = draft.person.trim();
    if (!typed) return null;
    if (filter.person && typed === filter.person.name) return filter.person;
    const list = people.data ?? [];
    const exact = list.find((u) => u.UserName.toLowerCase() === typed.toLowerCase());
    const hit = exact ?? (list.length === 1 ? list[0] : undefined);
    return hit ? { id: hit.Id, name: hit.UserName } : 'unknown';
  };
  const filtered = Boolean(filter.category || filter.eventType || filter.from || filter.to || filter.person);

  return (
    <div className="card">
      <form
        className="toolbar"
        role="search"
        aria-label="Filter the log"
        onSubmit={(e) => {
          e.preventDefault();
          const person = byPerson ? resolvePerson() : null;
          if (person === 'unknown') return setFilterError(`No person matches “${draft.person.trim()}”. Pick one from the suggestions.`);
          if (draft.from && draft.to && draft.to < draft.from) return setFilterError('The end date must not be before the start date.');
          setFilterError(null);
          setFilter((f) => ({ ...f, category: draft.category.trim(), eventType: draft.eventType.trim(), from: draft.from, to: draft.to, person }));
        }}
      >
        {byPerson ? (
          <>
            <label className="visually-hidden" htmlFor={`${id}-person`}>
              Person
            </label>
            <input
              id={`${id}-person`}
              className="input"
              placeholder="Person (user name)"
              list={`${id}-people`}
              autoComplete="off"
              value={draft.person}
              onChange={(e) => setDraft({ ...draft, person: e.target.value })}
            />
            <datalist id={`${id}-people`}>
              {(people.data ?? []).map((u) => (
                <option key={u.Id} value={u.UserName}>
                  {u.DisplayName}
                </option>
              ))}
            </datalist>
          </>
        ) : null}
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
        {/* Each day picker stays beside its label when the toolbar wraps. */}
        <span className="row">
          <label className="small" htmlFor={`${id}-from`}>
            From
          </label>
          <input id={`${id}-from`} className="input" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </span>
        <span className="row">
          <label className="small" htmlFor={`${id}-to`}>
            To
          </label>
          <input id={`${id}-to`} className="input" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </span>
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
        {filtered ? (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => {
              setDraft({ category: '', eventType: '', from: '', to: '', person: '' });
              setFilter((f) => ({ ...f, category: '', eventType: '', from: '', to: '', person: null }));
              setFilterError(null);
            }}
          >
            Clear filters
          </button>
        ) : null}
        <button type="button" className="btn btn-ghost" onClick={() => log.refetch()} disabled={log.isFetching}>
          {log.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </form>
      {filterError ? <Alert tone="danger" title={filterError} /> : null}
      {filter.person ? (
        <p className="small muted card-body">
          Showing what <strong>{filter.person.name}</strong> did and what was done to their account.
        </p>
      ) : null}
      <QueryState isPending={log.isPending} error={log.error} onRetry={() => log.refetch()}>
        {log.data && log.data.length === 0 ? (
          <p className="empty">No entries{filtered ? ' match this filter' : ' yet'}.</p>
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
