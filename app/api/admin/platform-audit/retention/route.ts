import { platformRetentionEndpoint, replacePlatformRetentionEndpoint } from '@/lib/api/log-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(platformRetentionEndpoint);
export const PUT = toRouteHandler(replacePlatformRetentionEndpoint);
