import { createUserEndpoint, deleteUsersEndpoint, listUsersEndpoint } from '@/lib/api/user-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listUsersEndpoint);
export const POST = toRouteHandler(createUserEndpoint);
export const DELETE = toRouteHandler(deleteUsersEndpoint);
