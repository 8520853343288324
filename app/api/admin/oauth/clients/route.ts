import { createOAuthClientEndpoint, listOAuthClientsEndpoint } from '@/lib/api/oauth-client-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listOAuthClientsEndpoint);
export const POST = toRouteHandler(createOAuthClientEndpoint);
