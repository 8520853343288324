import { parseStringList } from '../../db/json-list';
import type { GroupRow } from './repo';
import type { GroupDto } from './schemas';

export function toGroupDto(g: GroupRow): GroupDto {
  const boundTo = parseStringList(g.boundTo);
  return {
    Id: g.id,
    Name: g.name,
    Description: g.description,
    BoundTo: boundTo,
    Dormant: boundTo.length === 0,
    IsBuiltIn: g.isBuiltIn,
    RoleIds: g.roles.map((r) => r.roleId).sort(),
    ParentGroupIds: g.parents.map((p) => p.parentId).sort(),
    ChildGroupIds: g.children.map((c) => c.childId).sort(),
    MemberCount: g._count.members,
    CreatedAt: g.createdAt,
    UpdatedAt: g.updatedAt,
  };
}
