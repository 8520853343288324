import { deletePasskeyEndpoint } from '@/lib/api/passkey-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const DELETE = toRouteHandler(deletePasskeyEndpoint);
