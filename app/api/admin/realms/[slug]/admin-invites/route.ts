import { inviteRealmAdminEndpoint } from '@/lib/api/realm-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(inviteRealmAdminEndpoint);
