import type { UserRow } from './repo';
import type { UserDto } from './schemas';
import { displayNameOf } from '../display-name';

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
