import type { ServiceAccountRow } from './repo';
import type { ServiceAccountDto } from './schemas';

export function toServiceAccountDto(a: ServiceAccountRow): ServiceAccountDto {
  return {
    Id: a.id,
    Name: a.name,
    Description: a.description,
    IsActive: a.isActive,
    GroupIds: a.groups.map((g) => g.groupId).sort(),
    CredentialCount: a._count.credentials,
    CreatedAt: a.createdAt,
    UpdatedAt: a.updatedAt,
  };
}
