'use client';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { installFriendlyValidationMessages } from '@/lib/web/validation-messages';
import { ApiError } from './api';

// Every page loads this provider (app/layout.tsx): the forms' zod rules speak in plain sentences.
installFriendlyValidationMessages();

export function toSignIn(): void {
  const here = window.location.pathname + window.location.search;
  window.location.assign(`/login?redirect=${encodeURIComponent(here)}`);
}

/** A read or write that answers 401 means the session ended: go to sign-in and come back. */
function onUnauthenticated(error: unknown): void {
  if (error instanceof ApiError && error.status === 401 && /^\/(console|account)(\/|$)/.test(window.location.pathname)) toSignIn();
}

export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: onUnauthenticated }),
        mutationCache: new MutationCache({ onError: onUnauthenticated }),
        defaultOptions: {
          queries: {
            staleTime: 15_000,
            // Client errors do not heal by retrying; network and server errors may.
            retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
          },
          mutations: { retry: false },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
