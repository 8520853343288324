import { createLoginProviderEndpoint, listLoginProvidersEndpoint } from '@/lib/api/login-provider-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listLoginProvidersEndpoint);
export const POST = toRouteHandler(createLoginProviderEndpoint);
