import { appInfoEndpoint } from '@/lib/api/public-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(appInfoEndpoint);
