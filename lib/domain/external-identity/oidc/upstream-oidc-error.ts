import * as oidc from 'openid-client';
import { OUTBOUND_FAILURE_TEXT, outboundFailureOf } from '../../../outbound/outbound-fetch';

/**
 * Why a sign-in through an upstream OpenID provider failed, in words an administrator can act on
 * ('the upstream refused: access_denied', 'state mismatch', 'the ID token is invalid: ...',
 * 'discovery failed: ...'). The reason never carries a token, a code or a secret: it is built from
 * the upstream's error code or from openid-client's own messages, which name claims, not values.
 */
export class UpstreamOidcError extends Error {
  /**
   * @param unreachable The upstream could not be reached (refused connection, timeout): worth another try
   *   later (ExternalLogin.Unavailable) rather than a failed sign-in (ExternalLogin.Failed).
   */
  constructor(
    readonly reason: string,
    readonly unreachable = false,
  ) {
    super(reason);
    this.name = 'UpstreamOidcError';
  }
}

/** An OAuth error code from the upstream, kept to its documented alphabet (RFC 6749 4.1.2.1) and length. */
export function errorCode(value: unknown): string {
  const s = typeof value === 'string' ? value.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, '').slice(0, 64) : '';
  return s || 'unknown_error';
}

/** The innermost message: openid-client wraps oauth4webapi's precise message in a generic ClientError. */
function detail(err: unknown): string {
  if (err instanceof oidc.ClientError && err.cause instanceof Error) return err.cause.message;
  if (err instanceof oidc.ClientError && err.cause instanceof Response) return `${err.message} (${err.cause.status})`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Below HTTP: the outbound policy refused the address, or the upstream could not be reached (a
 * refused, reset or closed connection, TLS, openid-client's timeout around the abort). Only these
 * two generic reasons are told: which socket error it was is what a port scan through the "test
 * connection" button would read (docs/security.md "Outbound requests").
 */
function transportFailure(err: unknown): keyof typeof OUTBOUND_FAILURE_TEXT | undefined {
  if (err instanceof oidc.ClientError && err.code === 'OAUTH_TIMEOUT') return 'unreachable';
  return outboundFailureOf(err);
}

// oauth4webapi's codes for a JWT whose claims, timestamps or signing key do not check out (openid-client
// passes them on as ClientError.code without exporting the constants).
const JWT_CODES: ReadonlySet<string | undefined> = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
]);

/** The reason for a failure of one step: discovery, the code exchange, or the userinfo request. */
export function upstreamFailure(prefix: 'discovery failed' | 'the code exchange failed' | 'the userinfo request failed', err: unknown): UpstreamOidcError {
  if (err instanceof UpstreamOidcError) return err;
  const transport = transportFailure(err);
  if (transport) return new UpstreamOidcError(`${prefix}: ${OUTBOUND_FAILURE_TEXT[transport]}`, transport === 'unreachable');
  if (err instanceof oidc.ResponseBodyError) return new UpstreamOidcError(`${prefix}: the upstream refused: ${errorCode(err.error)}`);
  if (err instanceof oidc.AuthorizationResponseError) return new UpstreamOidcError(`the upstream refused: ${errorCode(err.error)}`);
  const message = detail(err);
  if (err instanceof oidc.ClientError && (JWT_CODES.has(err.code) || /\bJWT\b|ID Token|id_token/.test(message))) {
    return new UpstreamOidcError(`the ID token is invalid: ${message}`);
  }
  return new UpstreamOidcError(`${prefix}: ${message}`);
}
