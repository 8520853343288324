import { effectiveMembersEndpoint } from '@/lib/api/group-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(effectiveMembersEndpoint);
