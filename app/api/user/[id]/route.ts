import { deleteUserEndpoint, getUserEndpoint, updateUserEndpoint } from '@/lib/api/user-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getUserEndpoint);
export const PUT = toRouteHandler(updateUserEndpoint);
export const DELETE = toRouteHandler(deleteUserEndpoint);
