import { listPasskeysEndpoint } from '@/lib/api/passkey-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listPasskeysEndpoint);
