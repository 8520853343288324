import { negotiateEndpoint } from '@/lib/api/external-login-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(negotiateEndpoint);
