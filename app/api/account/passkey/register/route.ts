import { passkeyRegisterEndpoint } from '@/lib/api/passkey-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(passkeyRegisterEndpoint);
