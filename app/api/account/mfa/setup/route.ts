import { mfaSetupEndpoint } from '@/lib/api/mfa-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(mfaSetupEndpoint);
