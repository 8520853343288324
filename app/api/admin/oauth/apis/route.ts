import { createOAuthApiEndpoint, listOAuthApisEndpoint } from '@/lib/api/oauth-api-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listOAuthApisEndpoint);
export const POST = toRouteHandler(createOAuthApiEndpoint);
