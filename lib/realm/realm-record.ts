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
  createdAt: Date;
  updatedAt: Date | null;
};

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
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export const realmInclude = { domains: { select: { host: true } }, appDomains: { select: { host: true, appId: true } } } as const;
