// The in-memory view of a realm record (spec 2.1), as cached per host and handed to domain code.
export type RealmRecord = {
  id: string;
  slug: string;
  displayName: string;
  description: string | null;
  domains: string[];
  applicationDomains: Record<string, string>;
  primaryDomain: string;
  isControlPlane: boolean;
  isActive: boolean;
  databaseName: string;
  revision: number;
  /** Limits the control plane set (spec 4.10 RealmEntitlements); null = unlimited. */
  entitlements: RealmEntitlementLimits;
  createdAt: Date;
  updatedAt: Date | null;
};

export type RealmEntitlementLimits = { MaxUsers: number | null; MaxOAuthClients: number | null };

/** The stored JSON of `Realm.entitlements`: a limit that is not a whole number >= 0 reads as unlimited. */
export function parseEntitlements(json: string | null | undefined): RealmEntitlementLimits {
  let doc: Record<string, unknown> = {};
  try {
    const parsed: unknown = json ? JSON.parse(json) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) doc = parsed as Record<string, unknown>;
  } catch {
    // A damaged document limits nothing rather than locking the realm.
  }
  const limit = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);
  return { MaxUsers: limit(doc.MaxUsers), MaxOAuthClients: limit(doc.MaxOAuthClients) };
}

type RealmRow = {
  id: string;
  slug: string;
  displayName: string;
  description: string | null;
  primaryDomain: string;
  isControlPlane: boolean;
  isActive: boolean;
  databaseName: string;
  revision: number;
  entitlements?: string | null;
  createdAt: Date;
  updatedAt: Date | null;
  domains: { host: string }[];
  appDomains: { host: string; appId: string }[];
};

export function toRealmRecord(row: RealmRow): RealmRecord {
  const primary = row.primaryDomain;
  // The primary domain first, then the others in a stable order.
  const domains = [
    primary,
    ...row.domains
      .map((d) => d.host)
      .filter((h) => h !== primary)
      .sort(),
  ];
  return {
    id: row.id,
    slug: row.slug,
    displayName: row.displayName,
    description: row.description,
    domains,
    applicationDomains: Object.fromEntries(row.appDomains.map((d) => [d.host, d.appId])),
    primaryDomain: primary,
    isControlPlane: row.isControlPlane,
    isActive: row.isActive,
    databaseName: row.databaseName,
    revision: row.revision,
    entitlements: parseEntitlements(row.entitlements),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export const realmInclude = { domains: { select: { host: true } }, appDomains: { select: { host: true, appId: true } } } as const;
