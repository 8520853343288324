import { publish } from '../../events/bus';
import type { ReusedTokenKind } from '../../events/catalog';
import { eventFrom } from '../../events/event-from';
import type { DomainContext } from '../../realm/context';

// A spent authorization code, device code or rotated refresh token presented again means it was
// copied by someone (RFC 9700 §2.2.2, §4.14: refresh-token reuse detection). The OAuth engine has
// already revoked the grant it belongs to, the client session of client-sessions.ts, with every
// token issued under it; this puts the replay into the realm's security log (category OAuth), with
// the client and the grant, so that an administrator sees it and the person can be told.

export type TokenReuse = {
  clientId: string;
  kind: ReusedTokenKind;
  /** The grant's stored digest: the Id its client session is listed under. */
  grantId?: string;
  /** The person the grant was for, when the engine's record named one. */
  userId?: string;
  /** The engine's own words for the refusal ("refresh token already used"): never the token. */
  reason: string;
};

export async function recordTokenReuse(ctx: DomainContext, reuse: TokenReuse): Promise<void> {
  await publish(eventFrom(ctx, 'oauth-token.reused', reuse.userId, { ...reuse, success: false }));
}
