import { requirePermission } from '../../authz/require-permission';
import { notFound } from '../../errors/app-error';
import { domainContext, type DomainContext } from '../../realm/context';
import { getRealmRecordBySlug } from '../../realm/realm-store';

// The control plane's manifest routes act on another realm (spec 4.8): the caller's permission is
// checked in the control plane's own catalog, and the work then runs in the target realm as the
// platform (a system actor), as realm creation does: the control plane's administrators govern every
// realm, and they are not principals of the target realm whose holdings could be compared.
export async function controlPlaneTarget(ctx: DomainContext, slug: string, permission: 'realm:read' | 'realm:write'): Promise<DomainContext> {
  await requirePermission(ctx, permission, 'control-plane');
  const realm = await getRealmRecordBySlug(slug);
  if (!realm) throw notFound();
  const who = ctx.actor.kind === 'user' ? `user ${ctx.actor.userId}` : ctx.actor.kind;
  return domainContext(realm, { kind: 'system', reason: `manifest from the control plane (${who})` }, { ip: ctx.ip, userAgent: ctx.userAgent });
}
