import { createOAuthApiImplicitScopeEndpoint } from '@/lib/api/oauth-api-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(createOAuthApiImplicitScopeEndpoint);
