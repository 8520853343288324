import { deleteOAuthScopeEndpoint, getOAuthScopeEndpoint, updateOAuthScopeEndpoint } from '@/lib/api/oauth-scope-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getOAuthScopeEndpoint);
export const PUT = toRouteHandler(updateOAuthScopeEndpoint);
export const DELETE = toRouteHandler(deleteOAuthScopeEndpoint);
