import type { UserRow } from './repo';
import type { UserDto } from './schemas';

/** "Ada Lovelace", or the user name when no name is known. */
export function displayNameOf(u: { userName: string; firstname: string | null; lastname: string | null }): string {
  const full = [u.firstname, u.lastname].filter((p): p is string => Boolean(p && p.trim())).join(' ');
  return full || u.userName;
}

export function toUserDto(u: UserRow): UserDto {
  return {
    Id: u.id,
    UserName: u.userName,
    Email: u.email,
    EmailConfirmed: u.emailConfirmed,
    Firstname: u.firstname,
    Lastname: u.lastname,
    Acronym: u.acronym,
    DisplayName: displayNameOf(u),
    IsActive: u.isActive,
    IsDeleted: u.deletedAt !== null,
    DeletedAt: u.deletedAt,
    HasPassword: u.hasPassword,
    LastLoginAt: u.lastLoginAt,
    CreatedAt: u.createdAt,
    UpdatedAt: u.updatedAt,
  };
}
