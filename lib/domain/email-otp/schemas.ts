import { z } from 'zod';

// Wire shape of GET /api/account/email-otp/status, read by the account UI.
export const emailOtpStatusSchema = z.object({ Enabled: z.boolean(), Email: z.string(), EmailConfirmed: z.boolean() });
