import { createOAuthScopeEndpoint, listOAuthScopesEndpoint } from '@/lib/api/oauth-scope-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listOAuthScopesEndpoint);
export const POST = toRouteHandler(createOAuthScopeEndpoint);
