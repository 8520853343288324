import { AsyncLocalStorage } from 'node:async_hooks';
import type { ReadPoint } from '../db/sqlite-read-cache';
import { appIdForHost } from '../domain/apps/request-app';
import { BUILT_IN_IDS } from '../domain/built-in-ids';
import type { RealmRecord } from '../realm/realm-record';
import { shared } from '../runtime/shared';

// The request the engine is serving, for the engine's hooks that receive no request: the client
// lookup and the client metadata validator (oidc-provider hands them no context when a client comes
// from a metadata document) need the Host, since the App it routes to decides whether Client ID
// Metadata Documents are accepted and which App a new client belongs to. dispatch.ts runs every
// engine request (and the sign-in bridge) inside `withEngineRequest`. Its read point, taken when the
// request arrived, lets the read cache skip a check made since for another request
// (lib/db/sqlite-read-cache.ts).
// A client the engine writes (dynamic registration) is written as the registrant's domain operation,
// which records the request's address and agent.
type EngineRequest = { realm: RealmRecord; host: string | undefined; reads: ReadPoint; ip?: string; userAgent?: string };

function storage(): AsyncLocalStorage<EngineRequest> {
  return shared('oidc.engine-request', () => new AsyncLocalStorage<EngineRequest>());
}

export function withEngineRequest<T>(request: EngineRequest, run: () => Promise<T>): Promise<T> {
  return storage().run(request, run);
}

/** The Host of the engine request being served, or undefined outside one. */
export function engineRequest(): EngineRequest | undefined {
  return storage().getStore();
}

/**
 * The App the current engine request came in through, as client metadata stores it: null for the
 * built-in App (a client without an App belongs to it), or for no request at all.
 */
export function engineRequestAppId(realm: RealmRecord): string | null {
  const request = engineRequest();
  if (!request || request.realm.id !== realm.id) return null;
  const appId = appIdForHost(realm, request.host);
  return appId === BUILT_IN_IDS.mainApp ? null : appId;
}
