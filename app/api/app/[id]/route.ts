import { getAppEndpoint } from '@/lib/api/app-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getAppEndpoint);
