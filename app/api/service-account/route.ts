import { createServiceAccountEndpoint, listServiceAccountsEndpoint } from '@/lib/api/service-account-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listServiceAccountsEndpoint);
export const POST = toRouteHandler(createServiceAccountEndpoint);
