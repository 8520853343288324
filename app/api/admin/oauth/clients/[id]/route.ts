import { deleteOAuthClientEndpoint, getOAuthClientEndpoint, updateOAuthClientEndpoint } from '@/lib/api/oauth-client-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getOAuthClientEndpoint);
export const PUT = toRouteHandler(updateOAuthClientEndpoint);
export const DELETE = toRouteHandler(deleteOAuthClientEndpoint);
