import { nativeRegisterEndpoint } from '@/lib/api/native-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(nativeRegisterEndpoint);
