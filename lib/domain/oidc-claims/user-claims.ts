import { collectGrants, collectRoleNames, expandGrants } from '../../authz/evaluate';
import { loadReachableGroups } from '../../authz/grants-repo';
import { MAIN_APP_SLUG } from '../../authz/catalog';
import { parseCatalog } from '../apps/catalog-json';
import { findClaimsUser } from '../../db/claims-user-sql';
import type { ReadPoint } from '../../db/sqlite-read-cache';
import { realmDb, realmDbIfOpen } from '../../realm/context';
import type { RealmRecord } from '../../realm/realm-record';

// The claims the OAuth engine may release about a person (issue 4.4): the standard OIDC claims from
// the user record, and `roles` / `permissions` for the client's App through the same group walk as
// every permission check (spec 5.7). The engine filters them by the granted scopes.
export type UserClaims = Record<string, unknown> & { sub: string };

/**
 * The standard claims of a live user (null when inactive or deleted): one read of the user row.
 * `point` names the request, so that its reads share one freshness check (lib/db/sqlite-read-cache.ts).
 */
export async function userClaims(realm: RealmRecord, userId: string, point?: ReadPoint): Promise<UserClaims | null> {
  const db = realmDbIfOpen(realm) ?? (await realmDb(realm));
  const user = await findClaimsUser(db, userId, point);
  if (!user || !user.isActive || user.deletedAt) return null;
  const name = [user.firstname, user.lastname].filter(Boolean).join(' ');
  const claims: UserClaims = {
    sub: user.id,
    preferred_username: user.userName,
    email: user.email,
    email_verified: user.emailConfirmed,
    updated_at: Math.floor((user.updatedAt ?? user.createdAt).getTime() / 1000),
  };
  if (name) claims.name = name;
  if (user.firstname) claims.given_name = user.firstname;
  if (user.lastname) claims.family_name = user.lastname;
  if (user.acronym) claims.nickname = user.acronym;
  return claims;
}

/**
 * `roles` and `permissions` for the client's App (the built-in App when it names none). They cost
 * the group walk, so callers ask only when the granted scopes release them.
 */
export async function accessClaims(realm: RealmRecord, userId: string, appId: string | null): Promise<{ roles: string[]; permissions: string[] }> {
  const db = await realmDb(realm);
  const select = { slug: true, permissionCatalog: true } as const;
  const app = appId ? await db.app.findUnique({ where: { id: appId }, select }) : await db.app.findUnique({ where: { slug: MAIN_APP_SLUG }, select });
  const appSlug = app?.slug ?? MAIN_APP_SLUG;
  const { direct, groups } = await loadReachableGroups(db, realm.id, { kind: 'user', id: userId });
  return {
    roles: collectRoleNames(direct, groups, appSlug),
    permissions: expandGrants(
      collectGrants(direct, groups, appSlug),
      parseCatalog(app?.permissionCatalog).map((e) => e.Name),
    ),
  };
}
