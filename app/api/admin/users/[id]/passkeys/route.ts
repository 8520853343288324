import { listUserPasskeysEndpoint, removeUserPasskeysEndpoint } from '@/lib/api/user-security-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listUserPasskeysEndpoint);
export const DELETE = toRouteHandler(removeUserPasskeysEndpoint);
