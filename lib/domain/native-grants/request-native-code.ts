import { AppError } from '../../errors/app-error';
import { requestEmailOtp } from '../email-otp/request-email-otp';
import { limitRate } from '../realm-settings/rate-limit';
import { settingsInContext } from '../apps/app-settings';
import type { DomainContext } from '../../realm/context';
import { NATIVE_GRANT_TYPES, requireNativeClient } from './native-grants';

// POST /api/account/native/otp/request and /api/account/native/register (spec 4.4, CONTRACT
// "Account bodies"): the code-minting halves of the `urn:gatehouse:otp` grant, over plain JSON.
// Both mail the same 6-digit e-mail code as the hosted sign-in and answer the same whatever the
// address (spec 5.6); the code is then redeemed at /connect/token with `email` and `code`. Under
// the JIT or invite-code posture an unknown address gets a pending registration: the account is
// made when the code is redeemed (with `invite_code` when the realm requires one).

export async function requestNativeOtp(ctx: DomainContext, input: { Email: string; ClientId: string }): Promise<void> {
  const client = await requireNativeClient(ctx, input.ClientId, NATIVE_GRANT_TYPES.otp);
  await limitRate(ctx, 'email-otp-request', 'client', client.clientId);
  await requestEmailOtp({ ...ctx, appId: client.appId }, input.Email);
}

export async function nativeRegister(ctx: DomainContext, input: { Email: string; ClientId: string }): Promise<void> {
  const client = await requireNativeClient(ctx, input.ClientId, NATIVE_GRANT_TYPES.otp);
  // The posture of the client's App (its Settings over the realm's), as the code's redemption reads it.
  const appCtx = { ...ctx, appId: client.appId };
  if ((await settingsInContext(appCtx)).SelfRegistration.Posture === 'Off') throw new AppError('Registration.Disabled');
  await limitRate(ctx, 'register', 'client', client.clientId);
  await requestEmailOtp(appCtx, input.Email, { registration: true });
}
