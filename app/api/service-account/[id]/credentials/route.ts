import { createCredentialEndpoint, listCredentialsEndpoint } from '@/lib/api/service-account-credential-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(listCredentialsEndpoint);
export const POST = toRouteHandler(createCredentialEndpoint);
