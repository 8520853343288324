import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { realmDb, type DomainContext } from '../../realm/context';
import { requireAppId } from './repo';
import { INVITE_SCOPES_FOR, MANAGEMENT_SCOPE } from '../oauth-scopes/gatehouse-scopes';

/**
 * Who may mint, list and revoke an App's invite codes (spec 4.7 "Invite codes", 5.2): a person or
 * service account with `invite-code:<action>` (cookie, or a Management API bearer token), or a
 * bearer token carrying the App-bound scope `invite:<action>` (`invite:write` also reads) whose
 * client belongs to that very App: a token of App A never touches App B's codes. The realm-wide
 * overview (`appIdOrSlug` undefined) is for administrators only.
 */
export async function authorizeInviteCodes(ctx: DomainContext, action: 'read' | 'write', appIdOrSlug?: string): Promise<void> {
  const bearer = ctx.bearer;
  if (!bearer || bearer.scopes.includes(MANAGEMENT_SCOPE)) {
    await requirePermission(ctx, `invite-code:${action}`);
    return;
  }
  const allowed = INVITE_SCOPES_FOR[action];
  if (!appIdOrSlug || !allowed.some((s) => bearer.scopes.includes(s))) throw new AppError('Auth.Forbidden', { detail: `Requires invite-code:${action}.` });
  const appId = await requireAppId(await realmDb(ctx.realm), appIdOrSlug);
  if (!bearer.appId || bearer.appId !== appId) throw new AppError('Auth.Forbidden', { detail: "The token's client does not belong to this application." });
}
