import * as oidc from 'openid-client';
import { safeEqual } from '../../../crypto/tokens';
import type { OidcSection } from '../sections';
import { upstreamClient, type UpstreamOidcConfig } from './upstream-client';
import { errorCode, UpstreamOidcError, upstreamFailure } from './upstream-oidc-error';

// Sign-in through an upstream OpenID provider (issue 10 point 2), as a relying party built on
// openid-client: authorization code flow with S256 PKCE, state and nonce; openid-client validates the
// ID token (signature against the upstream's JWKS, iss, aud, exp, nonce). Pure: the caller keeps the
// pending login (state, nonce, verifier) between start and finish, and stores the ID token for logout.

export { upstreamClient, upstreamUrlProblem, type UpstreamOidcConfig } from './upstream-client';
export { UpstreamOidcError } from './upstream-oidc-error';

export type PendingUpstreamLogin = { state: string; nonce: string; codeVerifier: string };

export type UpstreamLoginResult = {
  issuer: string;
  subject: string;
  /** The ID token's claims, with the upstream's userinfo beneath them when the ID token carries no e-mail. */
  claims: Record<string, unknown>;
  /** Kept (sealed) by the caller as the id_token_hint of an RP-initiated logout. */
  idToken: string;
};

const DEFAULT_SCOPES = 'openid email profile';

/** The provider's scopes (default `openid email profile`), `openid` always first and present once. */
export function requestedScopes(section: OidcSection): string {
  const listed = (section.Scopes?.trim() || DEFAULT_SCOPES).split(/\s+/).filter((s) => s && s !== 'openid');
  return ['openid', ...new Set(listed)].join(' ');
}

/** The authorization URL to send the browser to, and what finishUpstreamLogin needs to check the answer. */
export async function startUpstreamLogin(cfg: UpstreamOidcConfig, redirectUri: string): Promise<{ authorizationUrl: string; pending: PendingUpstreamLogin }> {
  const client = await upstreamClient(cfg);
  const pending: PendingUpstreamLogin = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: redirectUri,
    scope: requestedScopes(cfg.section),
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
  });
  return { authorizationUrl: url.href, pending };
}

/**
 * Checks the upstream's answer at our callback and redeems its code. `callbackUrl` is the request
 * URL as received; only its query is read, and the token request names `redirectUri` exactly as
 * the authorization request did (the URL a server sees can differ behind a proxy). Throws
 * UpstreamOidcError.
 */
export async function finishUpstreamLogin(
  cfg: UpstreamOidcConfig,
  redirectUri: string,
  callbackUrl: URL,
  pending: PendingUpstreamLogin,
): Promise<UpstreamLoginResult> {
  // The state first, before anything else the answer says is believed, an error included: an answer
  // to another browser's login is refused (RFC 6749 10.12).
  const state = callbackUrl.searchParams.get('state');
  if (state === null || !safeEqual(state, pending.state)) throw new UpstreamOidcError('state mismatch');
  const error = callbackUrl.searchParams.get('error');
  if (error !== null) throw new UpstreamOidcError(`the upstream refused: ${errorCode(error)}`);

  const client = await upstreamClient(cfg);
  const answer = new URL(redirectUri);
  answer.search = callbackUrl.search;
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(client, answer, {
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      pkceCodeVerifier: pending.codeVerifier,
      idTokenExpected: true,
    });
  } catch (err) {
    throw upstreamFailure('the code exchange failed', err);
  }
  const idClaims = tokens.claims();
  if (!idClaims || !tokens.id_token) throw new UpstreamOidcError('the ID token is invalid: the upstream sent none');

  let claims: Record<string, unknown> = { ...idClaims };
  // Many upstreams put profile claims in userinfo only (OIDC Core 5.4: scope-requested claims go to
  // userinfo when an access token is issued). The ID token's own claims stay on top.
  if (idClaims.email === undefined && tokens.access_token && client.serverMetadata().userinfo_endpoint) {
    try {
      const userinfo = await oidc.fetchUserInfo(client, tokens.access_token, idClaims.sub);
      claims = { ...userinfo, ...idClaims };
    } catch (err) {
      throw upstreamFailure('the userinfo request failed', err);
    }
  }
  return { issuer: idClaims.iss, subject: idClaims.sub, claims, idToken: tokens.id_token };
}

/**
 * Where to send the browser to end its session at the upstream too (OIDC RP-Initiated Logout 1.0),
 * or undefined when the upstream offers no end_session_endpoint. Throws UpstreamOidcError when the
 * upstream cannot be discovered.
 */
export async function upstreamLogoutUrl(cfg: UpstreamOidcConfig, idToken: string, postLogoutRedirectUri: string): Promise<string | undefined> {
  const client = await upstreamClient(cfg);
  if (!client.serverMetadata().end_session_endpoint) return undefined;
  return oidc.buildEndSessionUrl(client, { id_token_hint: idToken, post_logout_redirect_uri: postLogoutRedirectUri }).href;
}
