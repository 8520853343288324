'use client';
import { useLiveState, type LiveState } from './live-provider';

const LABELS: Record<LiveState, { text: string; badge: string; hint: string }> = {
  connecting: { text: 'Connecting…', badge: 'badge', hint: 'Connecting for live updates' },
  live: { text: 'Live', badge: 'badge badge-success', hint: 'Live: changes made elsewhere appear here at once' },
  reconnecting: { text: 'Reconnecting…', badge: 'badge', hint: 'Connection lost: reconnecting for live updates' },
  offline: { text: 'Offline', badge: 'badge badge-danger', hint: 'Offline: changes made elsewhere appear when you reload; retrying' },
};

/** The hub connection's state in the console's top bar (a polite live region: changes are announced). */
export function LiveIndicator() {
  const label = LABELS[useLiveState()];
  return (
    <span className={label.badge} role="status" aria-label={`Live updates: ${label.text}`} title={label.hint} data-testid="live-indicator">
      {label.text}
    </span>
  );
}
