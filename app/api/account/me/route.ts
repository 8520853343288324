import { meEndpoint } from '@/lib/api/account-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(meEndpoint);
