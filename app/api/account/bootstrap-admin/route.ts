import { bootstrapAdminEndpoint } from '@/lib/api/account-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(bootstrapAdminEndpoint);
