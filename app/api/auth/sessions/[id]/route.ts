import { revokeSessionEndpoint } from '@/lib/api/session-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const DELETE = toRouteHandler(revokeSessionEndpoint);
