import { listSessionsEndpoint, signOutEverywhereEndpoint } from '@/lib/api/session-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listSessionsEndpoint);
export const DELETE = toRouteHandler(signOutEverywhereEndpoint);
