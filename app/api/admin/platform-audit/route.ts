import { platformAuditEndpoint } from '@/lib/api/log-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(platformAuditEndpoint);
