import { createPositionEndpoint, listPositionsEndpoint } from '@/lib/api/position-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listPositionsEndpoint);
export const POST = toRouteHandler(createPositionEndpoint);
