import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { errors } from 'oidc-provider';
import { proveEmailOtp } from '../../domain/email-otp/email-otp-login';
import { proveMagicLink } from '../../domain/magic-link/magic-link-login';
import { NATIVE_GRANT_TYPES } from '../../domain/native-grants/native-grants';
import { provePasskeyAssertion } from '../../domain/passkeys/login-with-passkey';
import type { RealmRecord } from '../../realm/realm-record';
import type { AccountFinder } from './issue-tokens';
import { runNativeGrant } from './run-native';

// The three native grant types, redeemed at /connect/token (spec 4.4, CONTRACT "Native grants"):
// `urn:gatehouse:otp` with `email` and `code` (and `invite_code` when registration needs one),
// `urn:gatehouse:magic` with `token`, `urn:gatehouse:passkey` with `ceremony_id` and `assertion`.
function param(ctx: KoaContextWithOIDC, name: string): string {
  const value = ctx.oidc.params?.[name];
  if (typeof value !== 'string' || !value) throw new errors.InvalidRequest(`missing required parameter '${name}'`);
  return value;
}

export function registerNativeGrants(provider: Provider, realm: RealmRecord, findAccount: AccountFinder): void {
  provider.registerGrantType(
    NATIVE_GRANT_TYPES.otp,
    async (ctx) => {
      const email = param(ctx, 'email');
      const code = param(ctx, 'code');
      const inviteCode = (ctx.oidc.params as Record<string, unknown>).invite_code;
      await runNativeGrant(ctx, realm, findAccount, {
        gty: NATIVE_GRANT_TYPES.otp,
        policy: 'email-otp-login',
        prove: async (dctx) => ({
          accountId: await proveEmailOtp(dctx, email, code, { appId: dctx.appId!, inviteCode: typeof inviteCode === 'string' ? inviteCode : null }),
          amr: ['otp'],
        }),
      });
    },
    ['email', 'code', 'scope', 'invite_code'],
  );

  provider.registerGrantType(
    NATIVE_GRANT_TYPES.magic,
    async (ctx) => {
      const token = param(ctx, 'token');
      await runNativeGrant(ctx, realm, findAccount, {
        gty: NATIVE_GRANT_TYPES.magic,
        policy: 'magic-link-login',
        prove: async (dctx) => ({ accountId: (await proveMagicLink(dctx, token)).userId, amr: ['mail'] }),
      });
    },
    ['token', 'scope'],
  );

  provider.registerGrantType(
    NATIVE_GRANT_TYPES.passkey,
    async (ctx) => {
      const ceremonyId = param(ctx, 'ceremony_id');
      let assertion: AuthenticationResponseJSON;
      try {
        assertion = JSON.parse(param(ctx, 'assertion')) as AuthenticationResponseJSON;
      } catch {
        throw new errors.InvalidRequest('assertion must be the authenticator response as JSON');
      }
      await runNativeGrant(ctx, realm, findAccount, {
        gty: NATIVE_GRANT_TYPES.passkey,
        policy: 'passkey-login',
        prove: async (dctx) => ({ accountId: (await provePasskeyAssertion(dctx, assertion, ceremonyId)).userId, amr: ['hwk'] }),
      });
    },
    ['ceremony_id', 'assertion', 'scope'],
  );
}
