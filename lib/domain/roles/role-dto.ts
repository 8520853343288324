import { parseStringList } from '../../db/json-list';
import type { RoleRow } from './repo';
import type { RoleDto } from './schemas';

export function toRoleDto(r: RoleRow): RoleDto {
  return {
    Id: r.id,
    Name: r.name,
    Description: r.description,
    AppId: r.appId,
    AppSlug: r.app.slug,
    Permissions: parseStringList(r.permissions),
    IsBuiltIn: r.isBuiltIn,
    GroupIds: r.groups.map((g) => g.groupId).sort(),
    CreatedAt: r.createdAt,
    UpdatedAt: r.updatedAt,
  };
}
