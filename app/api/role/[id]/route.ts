import { deleteRoleEndpoint, getRoleEndpoint, updateRoleEndpoint } from '@/lib/api/role-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getRoleEndpoint);
export const PUT = toRouteHandler(updateRoleEndpoint);
export const DELETE = toRouteHandler(deleteRoleEndpoint);
