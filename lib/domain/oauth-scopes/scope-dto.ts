import { parseStringList } from '../../db/json-list';
import type { ScopeRow } from './repo';
import type { ScopeDto } from './schemas';

export function toScopeDto(r: ScopeRow): ScopeDto {
  return {
    Id: r.id,
    Name: r.name,
    DisplayName: r.displayName,
    Description: r.description,
    Resources: parseStringList(r.resources),
    IsBuiltIn: r.isBuiltIn,
    CreatedAt: r.createdAt,
    UpdatedAt: r.updatedAt,
  };
}
