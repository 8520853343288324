import { listUserSessionsEndpoint, revokeUserSessionsEndpoint } from '@/lib/api/user-security-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listUserSessionsEndpoint);
export const DELETE = toRouteHandler(revokeUserSessionsEndpoint);
