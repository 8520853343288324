import { resetTwoFactorEndpoint } from '@/lib/api/user-security-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const DELETE = toRouteHandler(resetTwoFactorEndpoint);
