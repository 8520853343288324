import { samlSpMetadataEndpoint } from '@/lib/api/saml-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(samlSpMetadataEndpoint);
