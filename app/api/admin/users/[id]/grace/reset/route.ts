import { resetGracePeriodEndpoint } from '@/lib/api/user-security-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(resetGracePeriodEndpoint);
