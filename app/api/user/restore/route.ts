import { restoreUsersEndpoint } from '@/lib/api/user-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(restoreUsersEndpoint);
