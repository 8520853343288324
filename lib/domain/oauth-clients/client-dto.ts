import { parseStringList } from '../../db/json-list';
import type { ClientRow } from './repo';
import type { ClientDto } from './schemas';

export function toClientDto(r: ClientRow): ClientDto {
  return {
    Id: r.id,
    ClientId: r.clientId,
    DisplayName: r.displayName,
    Description: r.description,
    ClientType: r.clientType,
    ConsentType: r.consentType,
    AccessTokenType: r.accessTokenType,
    RedirectUris: parseStringList(r.redirectUris),
    PostLogoutRedirectUris: parseStringList(r.postLogoutRedirectUris),
    GrantTypes: parseStringList(r.grantTypes),
    Scopes: parseStringList(r.scopes),
    Capabilities: parseStringList(r.capabilities),
    AppId: r.appId,
    ServiceAccountId: r.serviceAccountId,
    PositionId: r.positionId,
    IsDynamic: r.isDynamic,
    IsActive: r.isActive,
    SecretCreatedAt: r.secretCreatedAt,
    CreatedAt: r.createdAt,
    UpdatedAt: r.updatedAt,
  };
}
