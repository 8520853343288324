import type { KoaContextWithOIDC } from 'oidc-provider';
import { oidcStorageKey } from '../db/oidc-payload-key';
import type { ReusedTokenKind } from '../events/catalog';

// Which grant a replayed one-time credential belonged to (docs/security.md "Token reuse"). The
// engine revokes a grant on the token route only when a spent authorization code, device code or
// rotated refresh token comes back (oidc-provider's grant_source.js and refresh_token.js call its
// `revoke` helper there and nowhere else on that route), and asks `revokeGrantPolicy` first, while
// the spent record still exists. So the policy notes the record's grant and person on the request,
// and the `grant.error` listener (provider-events.ts) reports the replay when the refusal follows.
// The notes are keyed by the request's context object and go with it.

export type Replay = { kind: ReusedTokenKind; grantId?: string; userId?: string };

const replays = new WeakMap<object, Replay>();

const KIND_OF_GRANT_TYPE: Readonly<Record<string, ReusedTokenKind>> = {
  authorization_code: 'authorization_code',
  refresh_token: 'refresh_token',
  'urn:ietf:params:oauth:grant-type:device_code': 'device_code',
};

type SpentRecord = { grantId?: string; accountId?: string; consumed?: unknown };

/** The spent record the request presented, read as the engine found it (expired ones included). */
async function presentedRecord(ctx: KoaContextWithOIDC, kind: ReusedTokenKind): Promise<SpentRecord | undefined> {
  const { provider, params, entities } = ctx.oidc;
  if (kind === 'refresh_token') return entities.RefreshToken;
  const value = kind === 'authorization_code' ? params?.code : params?.device_code;
  if (typeof value !== 'string') return undefined;
  try {
    const options = { ignoreExpiration: true };
    return kind === 'authorization_code' ? await provider.AuthorizationCode.find(value, options) : await provider.DeviceCode.find(value, options);
  } catch {
    // A storage failure here must not change the engine's answer: the replay is reported without its grant.
    return undefined;
  }
}

async function noteReplay(ctx: KoaContextWithOIDC): Promise<void> {
  const kind = KIND_OF_GRANT_TYPE[String(ctx.oidc.params?.grant_type)];
  if (!kind) return;
  const record = await presentedRecord(ctx, kind);
  if (record && !record.consumed) return;
  replays.set(ctx, { kind, grantId: record?.grantId ? oidcStorageKey(record.grantId) : undefined, userId: record?.accountId || undefined });
}

/** The engine's `revokeGrantPolicy`: its default decision, after noting a replay on the token route. */
export async function revokeGrantPolicy(ctx: KoaContextWithOIDC): Promise<boolean> {
  if (ctx.oidc.route === 'token') await noteReplay(ctx);
  // The engine's default: an access token revoked at the revocation endpoint leaves its grant alone.
  return !(ctx.oidc.route === 'revocation' && ctx.oidc.entities.AccessToken);
}

/** The replay noted on this request, if its grant was revoked for one. */
export function replayOf(ctx: unknown): Replay | undefined {
  return ctx && typeof ctx === 'object' ? replays.get(ctx) : undefined;
}
