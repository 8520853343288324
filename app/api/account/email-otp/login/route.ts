import { emailOtpLoginEndpoint } from '@/lib/api/email-otp-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const POST = toRouteHandler(emailOtpLoginEndpoint);
