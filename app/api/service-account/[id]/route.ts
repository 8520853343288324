import { deleteServiceAccountEndpoint, getServiceAccountEndpoint, updateServiceAccountEndpoint } from '@/lib/api/service-account-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getServiceAccountEndpoint);
export const PUT = toRouteHandler(updateServiceAccountEndpoint);
export const DELETE = toRouteHandler(deleteServiceAccountEndpoint);
