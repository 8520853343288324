import { publicOrigin } from '../../config/env';
import type { RealmRecord } from '../../realm/realm-record';
import { asFlavor, entryKind } from './provider-config';
import type { ProviderRow } from './repo';
import type { LoginProviderDto } from './schemas';

/** Where the upstream sends people back (CONTRACT.md "External identity"): one OIDC callback per realm. */
export function oidcCallbackUrl(realm: RealmRecord): string {
  return `${publicOrigin(realm.primaryDomain)}/api/account/external-login/finish`;
}

export function samlSpUrls(realm: RealmRecord, slug: string): { entityId: string; acsUrl: string; metadataUrl: string } {
  const entityId = `${publicOrigin(realm.primaryDomain)}/saml/${slug}`;
  return { entityId, acsUrl: `${entityId}/acs`, metadataUrl: `${entityId}/sp-metadata` };
}

export function toProviderDto(realm: RealmRecord, row: ProviderRow): LoginProviderDto {
  const flavor = asFlavor(row.flavor);
  const c = row.config;
  const saml = flavor === 'Saml' && row.slug ? samlSpUrls(realm, row.slug) : undefined;
  return {
    Id: row.id,
    Name: row.name,
    Flavor: flavor,
    Kind: entryKind(flavor) ?? null,
    Slug: row.slug,
    IsBuiltIn: row.isBuiltIn,
    IsActive: row.isActive,
    Jit: c.Jit,
    UserUpdateScript: c.UserUpdateScript ?? null,
    Oidc: flavor === 'Oidc' ? c.Oidc : null,
    Saml:
      flavor === 'Saml' && c.Saml
        ? { IdpMetadataXml: c.Saml.IdpMetadataXml, IdpEntityId: c.Saml.IdpEntityId, IdpSsoUrl: c.Saml.IdpSsoUrl, IdpCertificate: c.Saml.IdpCertificate }
        : null,
    Ldap: flavor === 'Ldap' ? c.Ldap : null,
    Kerberos: flavor === 'Kerberos' ? c.Kerberos : null,
    HasSecret: row.hasSecret,
    CallbackUrl: flavor === 'Oidc' ? oidcCallbackUrl(realm) : null,
    SpEntityId: saml?.entityId ?? null,
    AcsUrl: saml?.acsUrl ?? null,
    SpMetadataUrl: saml?.metadataUrl ?? null,
    NegotiateUrl: flavor === 'Kerberos' ? `${publicOrigin(realm.primaryDomain)}/api/account/negotiate/${row.id}` : null,
    CreatedAt: row.createdAt,
    UpdatedAt: row.updatedAt,
  };
}
