import { testLoginProviderEndpoint } from '@/lib/api/login-provider-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(testLoginProviderEndpoint);
