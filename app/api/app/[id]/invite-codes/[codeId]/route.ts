import { revokeInviteCodeEndpoint } from '@/lib/api/invite-code-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const DELETE = toRouteHandler(revokeInviteCodeEndpoint);
