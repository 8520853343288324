import { deleteGroupEndpoint, getGroupEndpoint, updateGroupEndpoint } from '@/lib/api/group-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getGroupEndpoint);
export const PUT = toRouteHandler(updateGroupEndpoint);
export const DELETE = toRouteHandler(deleteGroupEndpoint);
