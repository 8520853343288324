// Wire shapes of the directory endpoints as the browser receives them (spec 4.7; CONTRACT.md
// "Admin payloads"; lib/domain/{users,groups,roles,apps}/schemas.ts). Nulls are omitted on the wire.
export type User = {
  Id: string;
  UserName: string;
  Email: string;
  EmailConfirmed: boolean;
  Firstname?: string;
  Lastname?: string;
  Acronym?: string;
  DisplayName: string;
  IsActive: boolean;
  IsDeleted: boolean;
  DeletedAt?: string;
  HasPassword: boolean;
  LastLoginAt?: string;
  CreatedAt: string;
  UpdatedAt?: string;
};

export type GroupRef = { Id: string; Name: string };

export type UserGroup = { Id: string; Name: string; Description?: string; BoundTo: string[]; IsBuiltIn: boolean; Direct: boolean; Path: GroupRef[] };

export type Group = {
  Id: string;
  Name: string;
  Description?: string;
  BoundTo: string[];
  Dormant: boolean;
  IsBuiltIn: boolean;
  RoleIds: string[];
  ParentGroupIds: string[];
  ChildGroupIds: string[];
  MemberCount: number;
  CreatedAt: string;
  UpdatedAt?: string;
};

/** A user (UserId and UserName set) or a service account, both members through groups (spec 5.7). */
export type EffectiveMember = {
  Kind: 'User' | 'ServiceAccount';
  Id: string;
  UserId?: string;
  UserName?: string;
  DisplayName: string;
  IsActive: boolean;
  Direct: boolean;
  Via: GroupRef[];
};

export type Role = {
  Id: string;
  Name: string;
  Description?: string;
  AppId: string;
  AppSlug: string;
  Permissions: string[];
  IsBuiltIn: boolean;
  GroupIds: string[];
  CreatedAt: string;
  UpdatedAt?: string;
};

export type AppLookup = { Id: string; Slug: string; DisplayName: string };
export type CatalogEntry = { Name: string; Description?: string };
export type App = AppLookup & { Description?: string; IsBuiltIn: boolean; PermissionCatalog: CatalogEntry[] };

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
