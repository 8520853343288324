import { deletePositionEndpoint, getPositionEndpoint, updatePositionEndpoint } from '@/lib/api/position-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getPositionEndpoint);
export const PUT = toRouteHandler(updatePositionEndpoint);
export const DELETE = toRouteHandler(deletePositionEndpoint);
