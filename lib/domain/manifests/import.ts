import { isAppError, validationError } from '../../errors/app-error';
import { logError } from '../../log/logger';
import { domainContext, type DomainContext } from '../../realm/context';
import { createRealm, type CreatedRealm } from '../realms/create-realm';
import { deleteRealm } from '../realms/delete-realm';
import { applyParsedManifest } from './apply';
import { checkManifest } from './parse';
import type { ApplyResult, ImportRealmInput } from './schema';

// POST /api/admin/realms/import (spec 4.8): a new realm made by the ordinary create (its nine steps),
// then the manifest applied to it as the platform. The manifest is checked before anything is made;
// if applying it still fails, the half-made realm is dropped again and the error answered, so an
// import either yields the whole realm or nothing.
export async function importRealm(ctx: DomainContext, input: ImportRealmInput): Promise<CreatedRealm & { applied: ApplyResult }> {
  const checked = checkManifest(input.Manifest);
  if (!checked.ok) {
    const errors = Object.fromEntries(Object.entries(checked.errors).map(([pointer, messages]) => [`/Manifest${pointer === '/' ? '' : pointer}`, messages]));
    throw validationError(errors, 'The manifest is not valid; no realm was created.');
  }
  const manifest = checked.manifest;
  const created = await createRealm(ctx, {
    Slug: input.Slug,
    DisplayName: input.DisplayName ?? manifest.Realm.DisplayName,
    Description: manifest.Realm.Description,
    Domains: input.Domains,
    InitialAdmin: input.InitialAdmin,
  });
  const target = domainContext(created.realm, { kind: 'system', reason: 'realm import' }, { ip: ctx.ip, userAgent: ctx.userAgent });
  try {
    // The new realm keeps the DisplayName it was created with (the body's, else the manifest's).
    const applied = await applyParsedManifest(
      target,
      { ...manifest, Realm: { DisplayName: created.realm.displayName, Description: created.realm.description } },
      { prune: false, dryRun: false },
    );
    return { ...created, applied };
  } catch (e) {
    try {
      await deleteRealm(ctx, created.realm.slug, true);
    } catch (cleanup) {
      logError('could not remove the realm of a failed import', cleanup, { realmId: created.realm.id });
    }
    if (isAppError(e) && e.errors) {
      throw validationError(Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k.startsWith('/') ? `/Manifest${k}` : k, v])), e.detail);
    }
    throw e;
  }
}
