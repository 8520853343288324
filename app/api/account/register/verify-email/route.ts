import { verifyRegistrationEndpoint } from '@/lib/api/registration-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(verifyRegistrationEndpoint);
