import { parseStringList } from '../../db/json-list';
import type { CredentialView } from './credential-repo';
import type { CredentialDto } from './credential-schemas';

export function toCredentialDto(c: CredentialView, now = new Date()): CredentialDto {
  return {
    Id: c.id,
    ServiceAccountId: c.serviceAccountId,
    // A credential always has its client (both are written and removed together).
    ClientId: c.client?.clientId ?? '',
    DisplayName: c.displayName ?? '',
    Scopes: parseStringList(c.client?.scopes),
    ExpiresAt: c.expiresAt,
    IsExpired: c.expiresAt !== null && c.expiresAt.getTime() <= now.getTime(),
    CreatedAt: c.createdAt,
    RotatedAt: c.rotatedAt,
    LastUsedAt: c.lastUsedAt,
  };
}
