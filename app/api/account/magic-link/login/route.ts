import { magicLinkLoginEndpoint } from '@/lib/api/magic-link-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(magicLinkLoginEndpoint);
