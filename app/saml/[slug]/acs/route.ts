import { samlAcsEndpoint } from '@/lib/api/saml-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(samlAcsEndpoint);
