import { confirmDeletionEndpoint } from '@/lib/api/privacy-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(confirmDeletionEndpoint);
