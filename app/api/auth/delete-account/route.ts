import { deleteAccountEndpoint } from '@/lib/api/privacy-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(deleteAccountEndpoint);
