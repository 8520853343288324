'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, ApiError, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { QueryState } from '@/components/ui/query-state';
import { accountKeys, type BrowserSession, type ClientSession, type MySessions } from './account-types';
import { BrowserSessions } from './browser-sessions';
import { ConnectedApps } from './connected-apps';
import { SignOutEverywhere } from './sign-out-everywhere';
import { AccountSection } from './section';
import { describeUserAgent } from './user-agent';

type Notice = { tone: 'success' | 'danger'; text: string };

/** The clock for "5 minutes ago", ticking each minute so the words stay true while the page is open. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** Session.NotFound: it ended elsewhere in the meantime (expired, or signed out in another tab). */
function alreadyGone(e: unknown): boolean {
  return e instanceof ApiError && e.status === 404;
}

/** Sessions (spec 4.6): the browsers and applications signed in as you, and ending them. */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: accountKeys.sessions, queryFn: ({ signal }) => api<MySessions>('/api/auth/sessions', { signal }) });
  const now = useNow();
  const [notice, setNotice] = useState<Notice | null>(null);
  const liveRef = useRef<HTMLDivElement>(null);

  /**
   * Every outcome goes to one live region that is always in the page (a region inserted together
   * with its text is often not announced). After a success the button that was used is gone, so
   * focus moves to the result instead of falling back to the top of the page.
   */
  const report = (next: Notice, moveFocus: boolean) => {
    setNotice(next);
    void queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
    if (moveFocus) window.requestAnimationFrame(() => liveRef.current?.focus());
  };
  const failed = (e: unknown, gone: string) =>
    alreadyGone(e) ? report({ tone: 'success', text: gone }, true) : report({ tone: 'danger', text: problemMessage(e) }, false);

  const signOutOne = useMutation({
    mutationFn: (s: BrowserSession) => api(`/api/auth/sessions/${encodeURIComponent(s.Id)}`, { method: 'DELETE' }),
    onSuccess: (_r, s) => report({ tone: 'success', text: `Signed out ${describeUserAgent(s.UserAgent)}${s.IpAddress ? ` (${s.IpAddress})` : ''}.` }, true),
    onError: (e) => failed(e, 'That browser was already signed out.'),
  });
  const signOutOthers = useMutation({
    mutationFn: () => api('/api/auth/sessions/others', { method: 'DELETE' }),
    onSuccess: () => report({ tone: 'success', text: 'Signed out of all other browsers.' }, true),
    onError: (e) => failed(e, 'The other browsers were already signed out.'),
  });
  const removeApp = useMutation({
    mutationFn: (c: ClientSession) => api(`/api/auth/sessions/client/${encodeURIComponent(c.Id)}`, { method: 'DELETE' }),
    onSuccess: (_r, c) => report({ tone: 'success', text: `Removed access for ${c.ClientName}.` }, true),
    onError: (e) => failed(e, 'That application no longer had access.'),
  });
  const start = () => setNotice(null);

  return (
    <AccountSection id="sessions" title="Sessions" description="Where you are signed in, and which applications can use your account.">
      <div ref={liveRef} className="account-live" aria-live="polite" aria-atomic="true" tabIndex={-1}>
        {/* live="off": the wrapper is the live region; a second one inside would announce twice. */}
        {notice ? <Alert tone={notice.tone} title={notice.text} live="off" /> : null}
      </div>
      <QueryState isPending={list.isPending} error={list.error} onRetry={() => list.refetch()}>
        {list.data ? (
          <>
            <BrowserSessions
              sessions={list.data.Sessions}
              now={now}
              pendingId={signOutOne.isPending ? (signOutOne.variables?.Id ?? null) : null}
              othersBusy={signOutOthers.isPending}
              onSignOut={(s) => {
                start();
                signOutOne.mutate(s);
              }}
              onSignOutOthers={() => {
                start();
                signOutOthers.mutate();
              }}
            />
            <ConnectedApps
              clients={list.data.ClientSessions}
              now={now}
              pendingId={removeApp.isPending ? (removeApp.variables?.Id ?? null) : null}
              onRemove={(c) => {
                start();
                removeApp.mutate(c);
              }}
            />
          </>
        ) : null}
      </QueryState>
      <SignOutEverywhere />
    </AccountSection>
  );
}
