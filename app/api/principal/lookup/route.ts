import { lookupPrincipalsEndpoint } from '@/lib/api/principal-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(lookupPrincipalsEndpoint);
