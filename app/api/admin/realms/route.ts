import { createRealmEndpoint, listRealmsEndpoint } from '@/lib/api/realm-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listRealmsEndpoint);
export const POST = toRouteHandler(createRealmEndpoint);
