import { rebuildProjectionsEndpoint } from '@/lib/api/maintenance-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(rebuildProjectionsEndpoint);
