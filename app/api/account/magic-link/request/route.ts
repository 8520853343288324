import { magicLinkRequestEndpoint } from '@/lib/api/magic-link-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(magicLinkRequestEndpoint);
