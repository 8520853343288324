import { z } from 'zod';

// Wire shapes of the password routes (spec 4.1, 4.2; CONTRACT.md "Account bodies other tools rely
// on"). Names match case-insensitively, so `redirect` and `Redirect` are the same field.
const password = (missing = 'Enter a password.') => z.string().min(1, missing).max(1024);
const continuation = z.string().max(4096).nullish();

export const forgotPasswordBodySchema = z.object({ Email: z.email().max(254), Redirect: continuation });
export const forgotPasswordQuerySchema = z.object({ redirect: z.string().max(4096).optional() });
export const resetPasswordBodySchema = z.object({ Email: z.email().max(254), Token: z.string().min(1).max(200), NewPassword: password() });
export const resetPasswordResultSchema = z.object({ Redirect: z.string().optional() });
export const changePasswordBodySchema = z.object({ CurrentPassword: password('Enter your current password.'), NewPassword: password('Enter a new password.') });
export const emptyResultSchema = z.object({});
