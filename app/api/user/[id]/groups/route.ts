import { addUserToGroupEndpoint, listUserGroupsEndpoint } from '@/lib/api/user-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listUserGroupsEndpoint);
export const POST = toRouteHandler(addUserToGroupEndpoint);
