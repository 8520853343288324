import { createAppEndpoint, listAppsEndpoint } from '@/lib/api/app-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listAppsEndpoint);
export const POST = toRouteHandler(createAppEndpoint);
