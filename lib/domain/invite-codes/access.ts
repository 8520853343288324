import { requirePermission } from '../../authz/require-permission';
import type { DomainContext } from '../context';

/**
 * Who may mint, list and revoke an App's invite codes (spec 4.7 "Invite codes", 5.2).
 *
 * Today: a signed-in user with the realm permission `invite-code:<action>`.
 *
 * Seam for the OAuth work: spec 5.2 also admits bearer tokens with the App-bound scopes
 * `invite:read` / `invite:write`. When bearer actors exist, accept here an actor whose token carries
 * `invite:<action>` AND is bound to `appId` (a token of App A must never touch App B's codes); the
 * realm-wide overview (`appId` undefined) stays permission-only ("admin only"). The route
 * declarations name `invite-code:<action>` as `permission`, which the wrapper checks first: relax
 * that for bearer callers at the same time.
 */
export async function authorizeInviteCodes(ctx: DomainContext, action: 'read' | 'write', appId?: string): Promise<void> {
  void appId; // used once App-bound bearer scopes arrive (see above)
  await requirePermission(ctx, `invite-code:${action}`);
}
