import { startExternalLinkEndpoint } from '@/lib/api/external-link-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(startExternalLinkEndpoint);
