import { approveChangeRequestEndpoint } from '@/lib/api/change-request-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(approveChangeRequestEndpoint);
