'use client';
import { HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { api, ApiError } from '@/components/data/api';
import { toSignIn } from '@/components/data/query-provider';
import { prefixesOf, type LiveChange } from './resources';

// One connection to the hub `/signalr/ui` per console page load (docs/realtime.md, "The console").
// Each `changed` message invalidates the queries of its resource, so open lists and detail pages
// refetch; detail pages also hear it (LiveDetail) to say an item was changed or deleted elsewhere.
// The connection reconnects by itself; a hub that refuses us (401: the session ended) sends the
// person to sign in. A console that cannot connect works as before, only without live refresh.

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'offline';

/** A change as a page hears it; `echo` when this console had a write in flight (probably its own). */
export type HeardChange = LiveChange & { echo: boolean };
type Listener = (change: HeardChange) => void;

type Live = { state: LiveState; listen: (listener: Listener) => () => void };
const LiveContext = createContext<Live>({ state: 'offline', listen: () => () => {} });

/** Delays of the client's own reconnect attempts; after the last it gives up and our loop takes over. */
const RECONNECT_DELAYS_MS = [0, 2_000, 5_000, 10_000, 20_000, 30_000];
/** Delays between restarts once the client gave up (the last repeats). */
const RESTART_DELAYS_MS = [5_000, 15_000, 30_000, 60_000];
/** A change heard this soon after one of our own writes settled is taken for its echo. */
const ECHO_WINDOW_MS = 2_000;

/** True when the browser's session has ended (the client hides negotiate's status, so we ask an API). */
async function sessionEnded(): Promise<boolean> {
  try {
    await api('/api/auth/sessions');
    return false;
  } catch (e) {
    return e instanceof ApiError && e.status === 401;
  }
}

function invalidate(queryClient: QueryClient, change: LiveChange): void {
  const prefixes = prefixesOf(change);
  if (prefixes === 'all') void queryClient.invalidateQueries();
  else for (const queryKey of prefixes) void queryClient.invalidateQueries({ queryKey });
}

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  const listeners = useRef(new Set<Listener>());
  const [live] = useState<Pick<Live, 'listen'>>(() => ({
    listen: (listener) => {
      listeners.current.add(listener);
      return () => listeners.current.delete(listener);
    },
  }));

  useEffect(() => {
    let lastWriteAt = 0;
    const unwatch = queryClient.getMutationCache().subscribe((e) => {
      if (e.type === 'updated') lastWriteAt = Date.now();
    });
    const connection: HubConnection = new HubConnectionBuilder()
      .withUrl('/signalr/ui')
      .withAutomaticReconnect(RECONNECT_DELAYS_MS)
      .configureLogging(LogLevel.None)
      .build();
    let stopped = false;
    let wasLive = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    connection.on('changed', (change: LiveChange) => {
      const echo = queryClient.isMutating() > 0 || Date.now() - lastWriteAt < ECHO_WINDOW_MS;
      invalidate(queryClient, change);
      for (const listener of listeners.current) listener({ ...change, echo });
    });
    connection.onreconnecting(() => setState('reconnecting'));
    connection.onreconnected(() => {
      setState('live');
      // Changes made while we were away were not heard: read everything again.
      void queryClient.invalidateQueries();
    });
    // Whether this console has a write in flight or just settled: a session it ended itself.
    const ownWrite = () => queryClient.isMutating() > 0 || Date.now() - lastWriteAt < ECHO_WINDOW_MS;
    connection.onclose(() => {
      if (stopped) return;
      setState('offline');
      // The hub closes a connection whose session ended. When our own write ended it (signing out
      // goes to its own page), knocking again at once would only be refused while the page leaves.
      schedule(ownWrite() ? 1 : 0);
    });

    const start = async (attempt: number) => {
      if (stopped || connection.state !== HubConnectionState.Disconnected) return;
      try {
        await connection.start();
        if (stopped) return void connection.stop();
        setState('live');
        // Changes made while we were away were not heard: read everything again.
        if (wasLive) void queryClient.invalidateQueries();
        wasLive = true;
      } catch {
        if (stopped) return;
        // The hub refuses a browser without a session: the session ended (revoked, expired).
        // Unless our own write ended it (signing out goes to its own page): then look again later.
        if (!ownWrite() && (await sessionEnded())) {
          stopped = true;
          toSignIn();
          return;
        }
        if (stopped) return;
        setState('offline');
        schedule(attempt + 1);
      }
    };
    const schedule = (attempt: number) => {
      clearTimeout(timer);
      const delay = attempt === 0 ? 0 : RESTART_DELAYS_MS[Math.min(attempt - 1, RESTART_DELAYS_MS.length - 1)];
      timer = setTimeout(() => void start(attempt), delay);
    };

    void start(0);
    return () => {
      stopped = true;
      clearTimeout(timer);
      unwatch();
      void connection.stop();
    };
  }, [queryClient]);

  return <LiveContext.Provider value={{ state, listen: live.listen }}>{children}</LiveContext.Provider>;
}

/** The hub connection's state, for the indicator. */
export function useLiveState(): LiveState {
  return useContext(LiveContext).state;
}

/** Calls `listener` with every change the hub reports while the component is mounted. */
export function useLiveChanges(listener: Listener): void {
  const { listen } = useContext(LiveContext);
  const current = useRef(listener);
  useEffect(() => {
    current.current = listener;
  });
  useEffect(() => listen((change) => current.current(change)), [listen]);
}
