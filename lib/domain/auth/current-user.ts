import { CONTROL_PLANE_APP_SLUG, MAIN_APP_SLUG, controlPlaneCatalog, mainAppCatalog } from '../../authz/catalog';
import { expandGrants } from '../../authz/evaluate';
import { grantsOf, requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { realmDb, type DomainContext } from '../../realm/context';

// GET /api/account/me (spec 4.2): who is signed in, their effective permissions (pre-expanded, spec
// 5.7.4) in the built-in app and, on the control plane, in the control-plane app, and the realm.
export type CurrentUser = {
  Id: string;
  UserName: string;
  Email: string;
  EmailConfirmed: boolean;
  Firstname: string | null;
  Lastname: string | null;
  Acronym: string | null;
  Realm: string;
  RealmDisplayName: string;
  IsControlPlane: boolean;
  Permissions: string[];
  ControlPlanePermissions?: string[];
};

export async function currentUser(ctx: DomainContext): Promise<CurrentUser> {
  const actor = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({
    where: { id: actor.userId },
    select: { id: true, userName: true, email: true, emailConfirmed: true, firstname: true, lastname: true, acronym: true },
  });
  if (!user) throw new AppError('Auth.Unauthenticated');
  const main = expandGrants(
    await grantsOf(ctx, MAIN_APP_SLUG),
    mainAppCatalog.map((p) => p.Name),
  );
  const cp = ctx.realm.isControlPlane
    ? expandGrants(
        await grantsOf(ctx, CONTROL_PLANE_APP_SLUG),
        controlPlaneCatalog.map((p) => p.Name),
      )
    : undefined;
  return {
    Id: user.id,
    UserName: user.userName,
    Email: user.email,
    EmailConfirmed: user.emailConfirmed,
    Firstname: user.firstname,
    Lastname: user.lastname,
    Acronym: user.acronym,
    Realm: ctx.realm.slug,
    RealmDisplayName: ctx.realm.displayName,
    IsControlPlane: ctx.realm.isControlPlane,
    Permissions: main,
    ControlPlanePermissions: cp,
  };
}
