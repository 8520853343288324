import { selfRegistrationInfoEndpoint } from '@/lib/api/registration-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(selfRegistrationInfoEndpoint);
