import { rotateCredentialEndpoint } from '@/lib/api/service-account-credential-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(rotateCredentialEndpoint);
