import { deleteAppEndpoint, getAppEndpoint, updateAppEndpoint } from '@/lib/api/app-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getAppEndpoint);
export const PUT = toRouteHandler(updateAppEndpoint);
export const DELETE = toRouteHandler(deleteAppEndpoint);
