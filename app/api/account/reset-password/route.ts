import { resetPasswordEndpoint } from '@/lib/api/password-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(resetPasswordEndpoint);
