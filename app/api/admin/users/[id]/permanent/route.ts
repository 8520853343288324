import { eraseUserEndpoint } from '@/lib/api/privacy-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const DELETE = toRouteHandler(eraseUserEndpoint);
