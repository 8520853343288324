import { deleteUserExternalLinkEndpoint } from '@/lib/api/external-link-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const DELETE = toRouteHandler(deleteUserExternalLinkEndpoint);
