import type { appLookupSchema, appSchema } from '@/lib/domain/apps/schemas';
import type { effectiveMemberSchema, groupSchema } from '@/lib/domain/groups/schemas';
import type { roleSchema } from '@/lib/domain/roles/schemas';
import type { groupRefSchema, userGroupSchema, userSchema } from '@/lib/domain/users/schemas';
import type { WireOf } from '@/lib/http/wire';

// Wire shapes of the directory endpoints as the browser receives them (spec 4.7; CONTRACT.md
// "Admin payloads"), derived from the response schemas the API parses its answers through.
export type User = WireOf<typeof userSchema>;
export type GroupRef = WireOf<typeof groupRefSchema>;
export type UserGroup = WireOf<typeof userGroupSchema>;
export type Group = WireOf<typeof groupSchema>;
/** A user (UserId and UserName set) or a service account, both members through groups (spec 5.7). */
export type EffectiveMember = WireOf<typeof effectiveMemberSchema>;
export type Role = WireOf<typeof roleSchema>;
export type AppLookup = WireOf<typeof appLookupSchema>;
export type App = WireOf<typeof appSchema>;
export type CatalogEntry = App['PermissionCatalog'][number];

export const keys = {
  users: ['users'] as const,
  userList: (q: object) => ['users', 'list', q] as const,
  user: (id: string) => ['users', 'one', id] as const,
  userGroups: (id: string) => ['users', 'groups', id] as const,
  groups: ['groups'] as const,
  groupList: (q: object) => ['groups', 'list', q] as const,
  group: (id: string) => ['groups', 'one', id] as const,
  groupMembers: (id: string) => ['groups', 'members', id] as const,
  allGroups: ['groups', 'all'] as const,
  roles: ['roles'] as const,
  roleList: (q: object) => ['roles', 'list', q] as const,
  role: (id: string) => ['roles', 'one', id] as const,
  allRoles: ['roles', 'all'] as const,
  appLookup: ['apps', 'lookup'] as const,
  app: (id: string) => ['apps', 'one', id] as const,
};
