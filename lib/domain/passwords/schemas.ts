import { z } from 'zod';
import { emailRule, passwordRule } from '../credential-rules';

// Wire shapes of the password routes (spec 4.1, 4.2; CONTRACT.md "Account bodies other tools rely
// on"). Names match case-insensitively, so `redirect` and `Redirect` are the same field.
const continuation = z.string().max(4096).nullish();

export const forgotPasswordBodySchema = z.object({ Email: emailRule, Redirect: continuation });
export const forgotPasswordQuerySchema = z.object({ redirect: z.string().max(4096).optional() });
export const resetPasswordBodySchema = z.object({ Email: emailRule, Token: z.string().min(1).max(200), NewPassword: passwordRule() });
export const resetPasswordResultSchema = z.object({ Redirect: z.string().optional() });
export const changePasswordBodySchema = z.object({
  CurrentPassword: passwordRule('Enter your current password.'),
  NewPassword: passwordRule('Enter a new password.'),
});
export const emptyResultSchema = z.object({});
