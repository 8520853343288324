import { createRoleEndpoint, listRolesEndpoint } from '@/lib/api/role-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listRolesEndpoint);
export const POST = toRouteHandler(createRoleEndpoint);
