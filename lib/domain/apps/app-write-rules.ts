import { CONTROL_PLANE_APP_SLUG, MAIN_APP_SLUG } from '../../authz/catalog';
import { AppError, validationError } from '../../errors/app-error';
import type { AppWriteInput } from './schemas';
import { sparseAppSettings, type AppSettings } from './settings-schema';

// Rules every App write shares (spec 4.7 "Applications"). Pure, so they are tested without storage.

/** The built-in Apps' slugs name Gatehouse's own permission catalogs: no other App may take them. */
const RESERVED_SLUGS: ReadonlySet<string> = new Set([MAIN_APP_SLUG, CONTROL_PLANE_APP_SLUG]);

/** The catalog as stored: names and descriptions, blank descriptions dropped, in the order given. */
export function catalogOf(input: AppWriteInput): { Name: string; Description: string }[] {
  return input.PermissionCatalog.map((e) => ({ Name: e.Name, Description: e.Description?.trim() ?? '' }));
}

/**
 * What a write may do to this App. A built-in App keeps its slug and has no Settings (the realm
 * settings are its settings): 400 App.BuiltIn names the refused fields. Another App may not take a
 * built-in slug.
 */
export function checkWrite(input: AppWriteInput, current: { slug: string; isBuiltIn: boolean } | null): AppSettings | null {
  const settings = sparseAppSettings(input.Settings);
  if (current?.isBuiltIn) {
    const errors: Record<string, string[]> = {};
    if (input.Slug !== current.slug) errors.Slug = [`A built-in application keeps its slug ${current.slug}.`];
    if (settings) errors.Settings = ['A built-in application has no Settings of its own: change the realm settings instead.'];
    if (Object.keys(errors).length) throw new AppError('App.BuiltIn', { errors });
  } else if (RESERVED_SLUGS.has(input.Slug)) {
    throw validationError({ Slug: [`${input.Slug} is the slug of a built-in application; choose another.`] });
  }
  return settings;
}

/** Permission names the new catalog drops. */
export function removedPermissions(before: readonly { Name: string }[], after: readonly { Name: string }[]): string[] {
  const kept = new Set(after.map((e) => e.Name));
  return before.map((e) => e.Name).filter((n) => !kept.has(n));
}

/**
 * Sections whose realm counterparts open a way into the realm (sign-up, native grants, dynamic and
 * metadata-document clients): the realm settings need realm:admin for them, so changing an App's
 * needs it too, or app:write alone would open what only a realm administrator may.
 */
const GATED_SECTIONS = ['SelfRegistration', 'NativeGrants', 'Dcr', 'Cimd'] as const;

/** The gated sections a write changes (compared as stored). */
export function gatedChanges(before: AppSettings | null, after: AppSettings | null): string[] {
  return GATED_SECTIONS.filter((name) => JSON.stringify(before?.[name] ?? null) !== JSON.stringify(after?.[name] ?? null));
}

/** Sections and fields set in a stored document (for PII-free events). */
export function sectionsOf(settings: AppSettings | null): string[] {
  return settings ? Object.keys(settings) : [];
}
