import { removeUserFromGroupEndpoint } from '@/lib/api/user-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const DELETE = toRouteHandler(removeUserFromGroupEndpoint);
