import { deletionStatusEndpoint } from '@/lib/api/privacy-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(deletionStatusEndpoint);
