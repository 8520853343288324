import { restoreUserEndpoint } from '@/lib/api/user-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(restoreUserEndpoint);
