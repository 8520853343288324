import { listRealmInviteCodesEndpoint } from '@/lib/api/invite-code-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listRealmInviteCodesEndpoint);
