import type { RealmRecord } from '../../realm/realm-record';
import type { RealmDto } from './schemas';

export function toRealmDto(r: RealmRecord): RealmDto {
  return {
    Id: r.id,
    Slug: r.slug,
    DisplayName: r.displayName,
    Description: r.description,
    Domains: r.domains,
    ApplicationDomains: r.applicationDomains,
    PrimaryDomain: r.primaryDomain,
    IsControlPlane: r.isControlPlane,
    IsActive: r.isActive,
    CreatedAt: r.createdAt,
    UpdatedAt: r.updatedAt,
  };
}
