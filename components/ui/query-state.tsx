import type { ReactNode } from 'react';
import { problemMessage } from '@/components/data/api';
import { Alert } from './alert';

/** Loading and failure states of a read, shared by the console's lists and detail panels. */
export function QueryState({ isPending, error, onRetry, children }: { isPending: boolean; error: unknown; onRetry?: () => void; children: ReactNode }) {
  if (error) {
    return (
      <div className="card-body">
        <Alert tone="danger" title="Could not load this.">
          <p>{problemMessage(error)}</p>
          {onRetry ? (
            <p>
              <button type="button" className="btn btn-sm" onClick={onRetry}>
                Try again
              </button>
            </p>
          ) : null}
        </Alert>
      </div>
    );
  }
  if (isPending) {
    return (
      <div className="empty" role="status">
        <span className="row">
          <span className="spinner" aria-hidden="true" /> Loading…
        </span>
      </div>
    );
  }
  return <>{children}</>;
}

/** A deterministic timestamp (the same on the server and in the browser, so hydration matches). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
