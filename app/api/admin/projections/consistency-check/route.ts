import { consistencyCheckEndpoint } from '@/lib/api/maintenance-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(consistencyCheckEndpoint);
