import { importRealmEndpoint } from '@/lib/api/manifest-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(importRealmEndpoint);
