import { getRealmDb, openRealmDb } from '../db/realm-pool';
import type { RealmDb } from '../db/types';
import type { RealmRecord } from '../realm/realm-record';

// What every domain operation receives (docs/architecture.md): the realm and who acts. Route handlers,
// server components, the CLI and the OAuth engine all build one of these and call the same function.
export type Actor =
  | { kind: 'anonymous' }
  // A person: by session cookie (sessionId set) or by an OAuth bearer token (spec 5.2; `scopes` set).
  | { kind: 'user'; userId: string; userName: string; sessionId: string | null; scopes?: readonly string[] }
  // A service account calling with a client_credentials token of one of its credentials (spec 4.7).
  | { kind: 'service-account'; serviceAccountId: string; name: string; clientId: string; scopes: readonly string[] }
  // An OAuth client acting for itself (client credentials, no service account): only scope-based
  // routes (the App-bound invite scopes) accept it; it holds no permissions.
  | { kind: 'client'; clientId: string }
  // Whoever registers an OAuth client at /connect/register (RFC 7591: anyone, where the App's `Dcr`
  // setting allows it), or manages it with its registration access token (RFC 7592). It holds no
  // permission; it may write that one dynamically registered client only (registered-client.ts).
  | { kind: 'registrant'; clientId: string }
  // The command-line tool and start-up seeding: trusted, acts without a user.
  | { kind: 'system'; reason: string };

/** What a verified bearer token grants: its client, the client's App, and the token's scopes. */
export type BearerGrant = { clientId: string; appId: string | null; scopes: readonly string[]; audiences: readonly string[] };

export type DomainContext = {
  realm: RealmRecord;
  actor: Actor;
  ip?: string;
  userAgent?: string;
  /**
   * The App the request came in through (its Host in the realm's ApplicationDomains, else the
   * built-in App); unset outside requests. Counts the `app` rate-limit dimension and picks the
   * App's EmailBranding for mail.
   */
  appId?: string;
  /** Set when the caller authenticated with an OAuth bearer token (spec 5.2). */
  bearer?: BearerGrant;
  /**
   * The browser-session cookie the request carried, live or not. A sign-in that completes in this
   * browser replaces that session (revokes it), so signing in again never leaves the earlier one alive.
   */
  presentedSessionToken?: string;
  /** Memo for per-request derived data (effective permissions), keyed by purpose. */
  memo: Map<string, unknown>;
};

export function domainContext(realm: RealmRecord, actor: Actor, extra: { ip?: string; userAgent?: string; appId?: string } = {}): DomainContext {
  return { realm, actor, memo: new Map(), ...extra };
}

export function realmDb(realm: RealmRecord): Promise<RealmDb> {
  return getRealmDb(realm.databaseName);
}

/** The realm's client when its database is open already, at once (hot paths skip a turn); else undefined. */
export function realmDbIfOpen(realm: RealmRecord): RealmDb | undefined {
  return openRealmDb(realm.databaseName);
}
