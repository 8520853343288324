import { deleteCredentialEndpoint, updateCredentialEndpoint } from '@/lib/api/service-account-credential-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const PUT = toRouteHandler(updateCredentialEndpoint);
export const DELETE = toRouteHandler(deleteCredentialEndpoint);
