import { listChangeRequestsEndpoint } from '@/lib/api/change-request-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listChangeRequestsEndpoint);
