import { deleteOAuthApiEndpoint, getOAuthApiEndpoint, updateOAuthApiEndpoint } from '@/lib/api/oauth-api-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getOAuthApiEndpoint);
export const PUT = toRouteHandler(updateOAuthApiEndpoint);
export const DELETE = toRouteHandler(deleteOAuthApiEndpoint);
