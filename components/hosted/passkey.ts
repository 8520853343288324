'use client';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api, ApiError } from '@/components/data/api';
import type { LoginOutcome } from './login-outcome';

/**
 * A passkey ceremony against the sign-in API: request options (usernameless: no UserName, so the
 * authenticator offers its discoverable credentials; with a pending sign-in the server reads the
 * pending cookie and asks for that user's passkeys), the browser's prompt, then the answer.
 */
export async function passkeySignIn(): Promise<LoginOutcome> {
  const optionsJSON = await api<PublicKeyCredentialRequestOptionsJSON>('/api/account/passkey/login-options', { method: 'POST', body: {} });
  let response;
  try {
    response = await startAuthentication({ optionsJSON });
  } catch (e) {
    throw new PasskeyCancelled(e instanceof Error ? e.message : String(e));
  }
  return api<LoginOutcome>('/api/account/passkey/login', { method: 'POST', body: response });
}

/** The person dismissed the browser's prompt, it timed out, or there is no usable passkey. */
class PasskeyCancelled extends Error {}

export function passkeyMessage(error: unknown): string | null {
  if (error instanceof PasskeyCancelled) return 'The passkey prompt was closed or no passkey was chosen. Try again, or use another way to sign in.';
  if (error instanceof ApiError && error.status === 401 && error.code !== 'SignIn.NoPendingSignIn')
    return 'This passkey is not known here. Try another passkey or another way to sign in.';
  return null;
}
