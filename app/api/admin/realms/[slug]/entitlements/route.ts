import { putRealmEntitlementsEndpoint } from '@/lib/api/realm-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const PUT = toRouteHandler(putRealmEntitlementsEndpoint);
