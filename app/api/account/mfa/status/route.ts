import { mfaStatusEndpoint } from '@/lib/api/mfa-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(mfaStatusEndpoint);
