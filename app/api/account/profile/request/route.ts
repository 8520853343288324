import { cancelProfileRequestEndpoint, readProfileRequestEndpoint, submitProfileRequestEndpoint } from '@/lib/api/profile-request-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(readProfileRequestEndpoint);
export const PUT = toRouteHandler(submitProfileRequestEndpoint);
export const DELETE = toRouteHandler(cancelProfileRequestEndpoint);
