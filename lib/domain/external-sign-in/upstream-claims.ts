import type { UpstreamIdentity } from '../external-identity/upstream-identity';

// How each protocol's answer reads as an UpstreamIdentity: the facts the account linker needs, with
// everything the upstream said kept as `claims` for the UserUpdateScript.

function text(value: unknown): string | undefined {
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** OIDC: the standard claims (OIDC Core 5.1); `email_verified` must be the boolean true. */
export function identityFromOidcClaims(issuer: string, subject: string, claims: Record<string, unknown>): UpstreamIdentity {
  return {
    issuer,
    subject,
    claims,
    email: text(claims.email),
    emailVerified: claims.email_verified === true,
    userName: text(claims.preferred_username) ?? text(claims.email),
    firstname: text(claims.given_name),
    lastname: text(claims.family_name),
  };
}

const SAML_ATTRIBUTES = {
  email: ['mail', 'email', 'emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'],
  userName: ['uid', 'username', 'urn:oid:0.9.2342.19200300.100.1.1', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'],
  firstname: ['givenname', 'firstname', 'urn:oid:2.5.4.42', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'],
  lastname: ['sn', 'surname', 'lastname', 'urn:oid:2.5.4.4', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'],
} as const;

function attribute(attributes: Record<string, unknown>, names: readonly string[]): string | undefined {
  const lower = new Map(Object.entries(attributes).map(([k, v]) => [k.toLowerCase(), v]));
  for (const n of names) {
    const v = text(lower.get(n.toLowerCase()));
    if (v) return v;
  }
  return undefined;
}

/**
 * SAML: the IdP's signed assertion. An IdP the administrator registered vouches for the addresses it
 * asserts (SAML has no email_verified); that trust is the administrator's choice of IdP.
 */
export function identityFromSamlAssertion(issuer: string, nameId: string, attributes: Record<string, unknown>): UpstreamIdentity {
  const email = attribute(attributes, SAML_ATTRIBUTES.email) ?? (/^[^@\s]+@[^@\s]+$/.test(nameId) ? nameId : undefined);
  return {
    issuer,
    subject: nameId,
    claims: { ...attributes, nameId },
    email,
    emailVerified: !!email,
    userName: attribute(attributes, SAML_ATTRIBUTES.userName) ?? email,
    firstname: attribute(attributes, SAML_ATTRIBUTES.firstname),
    lastname: attribute(attributes, SAML_ATTRIBUTES.lastname),
  };
}
