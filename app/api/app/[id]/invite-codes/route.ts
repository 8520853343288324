import { listInviteCodesEndpoint, mintInviteCodesEndpoint } from '@/lib/api/invite-code-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listInviteCodesEndpoint);
export const POST = toRouteHandler(mintInviteCodesEndpoint);
