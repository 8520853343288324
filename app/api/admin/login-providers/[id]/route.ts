import { deleteLoginProviderEndpoint, getLoginProviderEndpoint, updateLoginProviderEndpoint } from '@/lib/api/login-provider-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(getLoginProviderEndpoint);
export const PUT = toRouteHandler(updateLoginProviderEndpoint);
export const DELETE = toRouteHandler(deleteLoginProviderEndpoint);
