import type { z } from 'zod';
import type { RealmRecord } from '../../realm/realm-record';
import { readStoredAppSettings } from './app-settings';
import { appHost } from './app-routes';
import { parseCatalog } from './catalog-json';
import type { AppRow } from './read-apps';
import type { appSchema, appSummarySchema } from './schemas';
import { sparseAppSettings } from './settings-schema';

export function toAppSummaryDto(a: AppRow): z.infer<typeof appSummarySchema> {
  return {
    Id: a.id,
    Slug: a.slug,
    DisplayName: a.displayName,
    Description: a.description,
    IsBuiltIn: a.isBuiltIn,
    // An entry without a description has none on the wire (stored as an empty string).
    PermissionCatalog: parseCatalog(a.permissionCatalog).map((e) => ({ Name: e.Name, Description: e.Description || null })),
    RoleCount: a._count.roles,
    CreatedAt: a.createdAt,
    UpdatedAt: a.updatedAt,
  };
}

/**
 * The sections of the stored document that validate, nothing else (a damaged section inherits, as
 * the flows read it), and the address its subdomain gives it under the realm's primary domain.
 */
export function toAppDto(a: AppRow, realm: Pick<RealmRecord, 'primaryDomain'>): z.infer<typeof appSchema> {
  const settings = sparseAppSettings(readStoredAppSettings(a.settings));
  const subdomain = settings?.Origin?.Subdomain;
  return { ...toAppSummaryDto(a), Settings: settings, Host: subdomain ? appHost(subdomain, realm.primaryDomain) : null };
}
