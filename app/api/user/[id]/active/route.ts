import { setUserActiveEndpoint } from '@/lib/api/user-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const PUT = toRouteHandler(setUserActiveEndpoint);
