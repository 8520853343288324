import { emailOtpStatusEndpoint } from '@/lib/api/email-otp-endpoints';
import { toRouteHandler } from '@/lib/http/route';

export const GET = toRouteHandler(emailOtpStatusEndpoint);
