import { loginProviderFlavorsEndpoint } from '@/lib/api/login-provider-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(loginProviderFlavorsEndpoint);
