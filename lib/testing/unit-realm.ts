import type { RealmRecord } from '../realm/realm-record';

// Fixtures for unit tests of domain operations against a real realm database (temp-realm-db.ts).

/** A realm record for the database `databaseName`, served at unit.test. */
export function unitRealm(databaseName: string): RealmRecord {
  const domain = 'unit.test';
  return {
    id: `r-${databaseName}`,
    slug: 'unit',
    displayName: 'Unit Realm',
    description: null,
    domains: [domain],
    applicationDomains: {},
    primaryDomain: domain,
    isControlPlane: false,
    isActive: true,
    databaseName,
    revision: 1,
    entitlements: { MaxUsers: null, MaxOAuthClients: null },
    createdAt: new Date(),
    updatedAt: null,
  };
}

/** 'ok' when the operation succeeds, else its error code (or the error itself, when it has none). */
export function errorCodeOf(operation: Promise<unknown>): Promise<string> {
  return operation.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? String(e),
  );
}
