import type { z } from 'zod';
import { parseCatalog, parseSettings } from './catalog-json';
import type { AppRow } from './read-apps';
import type { appSchema, appSummarySchema } from './schemas';

export function toAppSummaryDto(a: AppRow): z.infer<typeof appSummarySchema> {
  return {
    Id: a.id,
    Slug: a.slug,
    DisplayName: a.displayName,
    Description: a.description,
    IsBuiltIn: a.isBuiltIn,
    PermissionCatalog: parseCatalog(a.permissionCatalog),
    RoleCount: a._count.roles,
    CreatedAt: a.createdAt,
    UpdatedAt: a.updatedAt,
  };
}

export function toAppDto(a: AppRow): z.infer<typeof appSchema> {
  // Null sections are dropped on the wire, which keeps the document sparse (spec 4.7).
  return { ...toAppSummaryDto(a), Settings: parseSettings(a.settings) };
}
