import { verifyProfileEmailEndpoint } from '@/lib/api/profile-request-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(verifyProfileEmailEndpoint);
