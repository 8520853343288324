import { deleteRealmEndpoint, getRealmEndpoint, patchRealmEndpoint } from '@/lib/api/realm-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getRealmEndpoint);
export const PATCH = toRouteHandler(patchRealmEndpoint);
export const DELETE = toRouteHandler(deleteRealmEndpoint);
