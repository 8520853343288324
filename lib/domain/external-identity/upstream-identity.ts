// What every external sign-in method (OIDC, SAML, LDAP, Kerberos) hands to the account linker
// (link-or-create.ts) once the upstream has proven who the person is.
export type UpstreamIdentity = {
  /** The upstream's identifier: the OIDC issuer, the SAML IdP entity id, the LDAP URL, the Kerberos realm. */
  issuer: string;
  /** Stable per person at that issuer: OIDC `sub`, SAML NameID, LDAP entry DN, Kerberos principal. */
  subject: string;
  /** Everything the upstream said about the person; the UserUpdateScript sees it as `claims`. */
  claims: Record<string, unknown>;
  email?: string;
  /** Only a vouched-for address links to an existing account (OIDC `email_verified`; a directory's own attribute). */
  emailVerified: boolean;
  /** A proposed user name for a person created just in time (preferred_username, uid, principal name). */
  userName?: string;
  firstname?: string;
  lastname?: string;
};
