import { defineEndpoint } from '../http/endpoint';
import { changePassword } from '../domain/passwords/change-password';
import { requestPasswordReset } from '../domain/passwords/request-password-reset';
import { resetPassword } from '../domain/passwords/reset-password';
import {
  changePasswordBodySchema,
  emptyResultSchema,
  forgotPasswordBodySchema,
  forgotPasswordQuerySchema,
  resetPasswordBodySchema,
  resetPasswordResultSchema,
} from '../domain/passwords/schemas';

// The password life cycle (spec 4.1, 4.2, 5.6; CONTRACT.md "Account bodies other tools rely on").
export const forgotPasswordEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/forgot-password',
  summary: 'Mail a password-reset link; the same answer, in the same time, whether or not the address has an account',
  tags: ['Account'],
  auth: 'anonymous',
  rateLimit: 'forgot-password',
  body: forgotPasswordBodySchema,
  query: forgotPasswordQuerySchema,
  response: emptyResultSchema,
  handler: async ({ ctx, body, query }) => {
    await requestPasswordReset(ctx, { email: body.Email, redirect: body.Redirect ?? query.redirect });
    return {};
  },
});

export const resetPasswordEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/reset-password',
  summary: "Set a new password with the mailed token; ends all of the user's sessions and answers the continuation (Redirect) the request carried",
  tags: ['Account'],
  auth: 'anonymous',
  rateLimit: 'reset-password',
  body: resetPasswordBodySchema,
  response: resetPasswordResultSchema,
  handler: async ({ ctx, body }) => {
    const { redirect } = await resetPassword(ctx, { email: body.Email, token: body.Token, newPassword: body.NewPassword });
    return { Redirect: redirect };
  },
});

export const changePasswordEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/change-password',
  summary: "Change the signed-in user's password; other sessions end, this one stays",
  tags: ['Account'],
  auth: 'user',
  rateLimit: 'change-password',
  body: changePasswordBodySchema,
  response: emptyResultSchema,
  handler: async ({ ctx, body }) => {
    await changePassword(ctx, { currentPassword: body.CurrentPassword, newPassword: body.NewPassword });
    return {};
  },
});
