import { AppFeatures } from '../domain/apps/app-features';
import { RealmEntitlements } from '../domain/entitlements/realm-entitlements';
import { RealmFeatures } from '../domain/realm-settings/features';
import { mapEntitlements, mapFlags } from '../http/flag-routes';

// The registered evaluation route groups (spec 4.10, docs/flags.md): a cookie or a Management API
// bearer token, the `flag-evaluation` rate limit. The route files under app/flags and
// app/entitlements export these handlers; lib/api/catalog.ts lists their endpoints for OpenAPI.
export const flagRoutes = mapFlags([RealmFeatures, AppFeatures], { rateLimit: 'flag-evaluation' });

export const entitlementRoutes = mapEntitlements([RealmEntitlements], { rateLimit: 'flag-evaluation' });

export const flagRouteGroups = [flagRoutes, entitlementRoutes] as const;
