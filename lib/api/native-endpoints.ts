import { z } from 'zod';
import { nativeRegister, requestNativeOtp } from '../domain/native-grants/request-native-code';
import { defineEndpoint } from '../http/endpoint';

// Native cookieless grants, the JSON half (spec 4.4; CONTRACT "Account bodies"): mint an e-mail code
// that the app redeems at /connect/token as `urn:gatehouse:otp`. Hidden (404) while the realm or the
// client's App has `NativeGrants` off.
const tags = ['Native grants'];
const body = z.object({ Email: z.email().max(254), ClientId: z.string().min(1).max(200) });

export const nativeOtpRequestEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/native/otp/request',
  summary: 'Mail a one-time sign-in code for the urn:gatehouse:otp grant (same answer whether or not the address has an account)',
  tags,
  auth: 'anonymous',
  rateLimit: 'email-otp-request',
  body,
  response: z.object({}),
  handler: async ({ ctx, body }) => {
    await requestNativeOtp(ctx, body);
    return {};
  },
});

export const nativeRegisterEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/native/register',
  summary: 'Passwordless sign-up: a pending registration and a code; the account is created when the code is redeemed at /connect/token',
  tags,
  auth: 'anonymous',
  rateLimit: 'register',
  body,
  response: z.object({}),
  handler: async ({ ctx, body }) => {
    await nativeRegister(ctx, body);
    return {};
  },
});
