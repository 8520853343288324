import type { KoaContextWithOIDC } from 'oidc-provider';
import { errors } from 'oidc-provider';

// Token issuance for the native grants (spec 4.4), with the engine's public models: a grant for the
// person and client, an access token (reference, for userinfo), a refresh token when `offline_access`
// is asked for and the client may refresh, and an ID token for `openid`. The refresh token is an
// ordinary one: it rotates, and its reuse revokes the family, like any other.
const USER_SCOPES = new Set(['openid', 'profile', 'email', 'offline_access', 'roles', 'permissions']);

export type NativeSignIn = { accountId: string; amr: string[]; gty: string };
export type EngineAccount = { accountId: string; claims(use: string, scope: string, claims: object, rejected: string[]): Promise<Record<string, unknown>> };
export type AccountFinder = (ctx: KoaContextWithOIDC, sub: string) => Promise<EngineAccount | undefined>;

export async function issueNativeTokens(ctx: KoaContextWithOIDC, signIn: NativeSignIn, findAccount: AccountFinder): Promise<void> {
  const { provider, client } = ctx.oidc;
  if (!client) throw new errors.InvalidClient('client authentication failed');
  const requested = String(ctx.oidc.params?.scope ?? 'openid')
    .split(' ')
    .filter(Boolean);
  const allowed = new Set(String(client.scope ?? '').split(' '));
  const scope = requested.filter((s) => USER_SCOPES.has(s) && allowed.has(s)).join(' ');
  if (!scope.split(' ').includes('openid')) throw new errors.InvalidScope('openid is required', 'openid');

  const account = await findAccount(ctx, signIn.accountId);
  if (!account) throw new errors.InvalidGrant('the account is not active');
  ctx.oidc.entity('Account', account);

  const grant = new provider.Grant({ accountId: signIn.accountId, clientId: client.clientId });
  grant.addOIDCScope(scope);
  const grantId = await grant.save();
  ctx.oidc.entity('Grant', grant);

  const authTime = Math.floor(Date.now() / 1000);
  const at = new provider.AccessToken({ accountId: signIn.accountId, client, grantId, scope, gty: signIn.gty });
  ctx.oidc.entity('AccessToken', at);
  const accessToken = await at.save();

  let refreshToken: string | undefined;
  if (scope.split(' ').includes('offline_access') && client.grantTypeAllowed('refresh_token')) {
    const rt = new provider.RefreshToken({ accountId: signIn.accountId, client, grantId, scope, gty: signIn.gty, amr: signIn.amr, authTime, rotations: 0 });
    ctx.oidc.entity('RefreshToken', rt);
    refreshToken = await rt.save();
  }

  const claims = await account.claims('id_token', scope, {}, []);
  const idToken = new provider.IdToken({ ...claims, amr: signIn.amr, auth_time: authTime }, { ctx });
  // Profile claims come from userinfo with the access token, as for the code flow (conformIdTokenClaims).
  (idToken as unknown as { scope: string }).scope = 'openid';
  idToken.set('at_hash', accessToken);

  ctx.body = {
    access_token: accessToken,
    expires_in: at.expiration,
    token_type: 'Bearer',
    scope,
    id_token: await idToken.issue({ use: 'idtoken' }),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  };
}
