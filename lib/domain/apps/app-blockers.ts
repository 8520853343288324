import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import type { AppBlocker } from './schemas';

// What keeps an App from being deleted (spec 4.7 "Applications": "Deleting an App that is still
// referenced by a role or resource server returns 409 with a body listing every blocker"): its
// roles, the OAuth APIs (resource servers) and OAuth clients that name it, and its invite codes
// that can still be redeemed. Spent codes (used, revoked, expired) are history and go with it.

const KIND_WORDS: Record<AppBlocker['Kind'], [string, string]> = {
  Role: ['role', 'roles'],
  OAuthApi: ['OAuth API', 'OAuth APIs'],
  OAuthClient: ['OAuth client', 'OAuth clients'],
  InviteCode: ['active invite code', 'active invite codes'],
};

export async function appBlockers(tx: RealmTx, appId: string, now = new Date()): Promise<AppBlocker[]> {
  // One after another: inside a transaction there is one connection.
  const roles = await tx.permissionRole.findMany({ where: { appId }, select: { id: true, name: true }, orderBy: { name: 'asc' } });
  const apis = await tx.oAuthApi.findMany({ where: { appId }, select: { id: true, name: true, displayName: true }, orderBy: { name: 'asc' } });
  const clients = await tx.oAuthClient.findMany({ where: { appId }, select: { id: true, clientId: true, displayName: true }, orderBy: { clientId: 'asc' } });
  const codes = await tx.inviteCode.findMany({
    where: { appId, usedAt: null, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    select: { id: true, label: true },
    orderBy: { createdAt: 'asc' },
  });
  return [
    ...roles.map((r): AppBlocker => ({ Kind: 'Role', Id: r.id, Name: r.name })),
    ...apis.map((a): AppBlocker => ({ Kind: 'OAuthApi', Id: a.id, Name: a.displayName || a.name })),
    ...clients.map((c): AppBlocker => ({ Kind: 'OAuthClient', Id: c.id, Name: c.displayName ? `${c.displayName} (${c.clientId})` : c.clientId })),
    ...codes.map((c): AppBlocker => ({ Kind: 'InviteCode', Id: c.id, Name: c.label || 'Invite code without a label' })),
  ];
}

/** "2 roles (Editors, Viewers), 1 OAuth client (Shop (shop-web)) and 3 active invite codes": plain words for the console. */
export function describeBlockers(blockers: readonly AppBlocker[]): string {
  const parts = (Object.keys(KIND_WORDS) as AppBlocker['Kind'][]).flatMap((kind) => {
    const of = blockers.filter((b) => b.Kind === kind);
    if (!of.length) return [];
    const [one, many] = KIND_WORDS[kind];
    const names = kind === 'InviteCode' ? '' : ` (${of.map((b) => b.Name).join(', ')})`;
    return [`${of.length} ${of.length === 1 ? one : many}${names}`];
  });
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return `Still used by ${list}. Delete them or move them to another application (revoke the invite codes) first.`;
}

export function appInUse(blockers: AppBlocker[]): AppError {
  return new AppError('App.InUse', { detail: describeBlockers(blockers), extensions: { Blockers: blockers } });
}
