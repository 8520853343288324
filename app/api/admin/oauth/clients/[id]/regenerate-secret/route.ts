import { regenerateOAuthClientSecretEndpoint } from '@/lib/api/oauth-client-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(regenerateOAuthClientSecretEndpoint);
