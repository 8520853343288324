import { createGroupEndpoint, listGroupsEndpoint } from '@/lib/api/group-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listGroupsEndpoint);
export const POST = toRouteHandler(createGroupEndpoint);
