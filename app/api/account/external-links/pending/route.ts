import { cancelExternalLinkEndpoint, pendingExternalLinkEndpoint } from '@/lib/api/external-link-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(pendingExternalLinkEndpoint);
export const DELETE = toRouteHandler(cancelExternalLinkEndpoint);
