import { lookupUsersEndpoint } from '@/lib/api/user-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(lookupUsersEndpoint);
