import { getRealmSettingsEndpoint, patchRealmSettingsEndpoint, putRealmSettingsEndpoint } from '@/lib/api/realm-settings-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getRealmSettingsEndpoint);
export const PUT = toRouteHandler(putRealmSettingsEndpoint);
export const PATCH = toRouteHandler(patchRealmSettingsEndpoint);
