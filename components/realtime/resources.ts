import type { QueryKey } from '@tanstack/react-query';

// The one map from a hub `Resource` (docs/realtime.md) to the react-query key prefixes of the console
// that show it. A `changed` message invalidates every query under these prefixes, so open lists and
// detail pages refetch. A new console page gets live refresh by keying its queries under its
// resource's prefix (or by adding its prefix here).

/** What the hub says changed: the `changed` message's argument. */
export type LiveChange = { Resource: string; Action: 'created' | 'updated' | 'deleted'; Id?: string };

/** Hub resource -> the query key prefixes to invalidate. */
export const LIVE_QUERY_PREFIXES: Readonly<Record<string, readonly QueryKey[]>> = {
  user: [['users'], ['change-requests']],
  // Session lists are per person: `Id` is the person whose sessions changed.
  session: [['users', 'sessions']],
  // A membership change is an update of its group: the user pages' group lists follow.
  'authorization-group': [['groups'], ['users', 'groups'], ['users', 'effective-groups']],
  'permission-role': [['roles'], ['groups']],
  'service-account': [['service-accounts'], ['oauth-clients']],
  position: [['positions']],
  'oauth-client': [['oauth-clients']],
  'oauth-scope': [['oauth-scopes']],
  'oauth-api': [['oauth-apis']],
  'login-provider': [['login-providers']],
  app: [['apps'], ['roles']],
  'invite-code': [['invite-codes']],
  'realm-settings': [['realm-settings'], ['app-info']],
  realm: [['realms']],
  'platform-settings': [['platform-audit']],
};

/** A change that may have touched anything (an applied realm manifest): every query refetches. */
export const EVERYTHING = 'realm-config';

/** The prefixes a change invalidates: `'all'` for everything, `[]` for a resource no page shows. */
export function prefixesOf(change: LiveChange): readonly QueryKey[] | 'all' {
  if (change.Resource === EVERYTHING) return 'all';
  return LIVE_QUERY_PREFIXES[change.Resource] ?? [];
}
