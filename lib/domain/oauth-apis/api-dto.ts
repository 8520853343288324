import type { ApiRow } from './repo';
import type { ApiDto } from './schemas';

export function toApiDto(r: ApiRow): ApiDto {
  return {
    Id: r.id,
    Name: r.name,
    Audience: r.audience,
    DisplayName: r.displayName,
    Description: r.description,
    AppId: r.appId,
    IsBuiltIn: r.isBuiltIn,
    CreatedAt: r.createdAt,
    UpdatedAt: r.updatedAt,
  };
}
