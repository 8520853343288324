import { realmManifestSchemaEndpoint } from '@/lib/api/manifest-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(realmManifestSchemaEndpoint);
