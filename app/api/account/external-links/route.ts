import { ownExternalLinksEndpoint } from '@/lib/api/external-link-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(ownExternalLinksEndpoint);
