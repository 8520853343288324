import { sendEmailVerificationEndpoint } from '@/lib/api/email-verification-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(sendEmailVerificationEndpoint);
