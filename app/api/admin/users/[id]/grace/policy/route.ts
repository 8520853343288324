import { setTwoFactorPolicyEndpoint } from '@/lib/api/user-security-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const PUT = toRouteHandler(setTwoFactorPolicyEndpoint);
