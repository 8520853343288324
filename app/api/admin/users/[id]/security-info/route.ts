import { securityInfoEndpoint } from '@/lib/api/user-security-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(securityInfoEndpoint);
