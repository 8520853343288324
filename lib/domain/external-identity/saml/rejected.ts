// Why a SAML response was refused. `reason` is short and stable (tests and the security log match
// it); `detail` is the library's own words, for the server log only: it may quote the response.

export const REJECTION = {
  noResponse: 'no SAMLResponse',
  malformed: 'malformed response',
  tooLarge: 'too large or too deeply nested',
  notAResponse: 'not a SAML Response',
  idpInitiated: 'IdP-initiated SSO is not supported',
  singleLogout: 'Single Logout is not supported',
  artifact: 'Artifact binding is not supported',
  encrypted: 'encrypted assertions are not supported',
  notOurs: 'not a response to a request we sent',
  replayed: 'replayed',
  otherBrowser: 'the answer belongs to a sign-in another browser started',
  destination: 'destination',
  signature: 'signature',
  issuer: 'issuer',
  audience: 'audience',
  expired: 'expired',
  notYetValid: 'not yet valid',
  noAssertion: 'no assertion',
  noNameId: 'no NameID',
  transientNameId: 'transient NameID (configure a persistent or e-mail NameID at the IdP)',
  idpStatus: 'the IdP did not sign the person in',
} as const;

export type RejectionReason = (typeof REJECTION)[keyof typeof REJECTION];

export class SamlRejectedError extends Error {
  constructor(
    readonly reason: RejectionReason,
    readonly detail?: string,
  ) {
    super(`SAML response refused: ${reason}`);
    this.name = 'SamlRejectedError';
  }
}

/** node-saml's error messages (lib/saml.js, lib/xml.js in v5) mapped to our reasons. */
export function reasonForLibraryError(message: string): RejectionReason {
  if (/InResponseTo/i.test(message)) return REJECTION.notOurs;
  if (/expired|No valid subject confirmation/i.test(message)) return REJECTION.expired;
  if (/not yet valid/i.test(message)) return REJECTION.notYetValid;
  if (/audience/i.test(message)) return REJECTION.audience;
  if (/decrypt|EncryptedAssertion/i.test(message)) return REJECTION.encrypted;
  if (/signature|signed|ID cannot refer|Referenced node|transforms/i.test(message)) return REJECTION.signature;
  if (/Missing SAML assertion/i.test(message)) return REJECTION.noAssertion;
  return REJECTION.malformed;
}
