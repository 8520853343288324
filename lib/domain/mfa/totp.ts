import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

// TOTP per RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps, a 160-bit
// base32 key. A code is accepted one step either side of now (clock drift); the caller keeps the
// step of the last accepted code so that code, or an older one, is never accepted again.
const TOTP_TOLERANCE_SECONDS = 30;

export function newTotpKey(): string {
  return generateSecret({ length: 20 });
}

/** `otpauth://totp/<issuer>:<account>?secret=…&issuer=…` (the Key Uri Format of authenticator apps). */
export function authenticatorUri(issuer: string, account: string, key: string): string {
  // A colon would end the issuer prefix of the label early.
  return generateURI({ issuer: issuer.replace(/:/g, ' '), label: account.replace(/:/g, ' '), secret: key });
}

export function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

export type TotpCheck = { valid: false } | { valid: true; timeStep: number };

/** Checks a code against a key; anything that is not six digits is simply not valid. */
export async function checkTotpCode(key: string, code: string, epoch?: number): Promise<TotpCheck> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return { valid: false };
  const r = await verify({ secret: key, token, epochTolerance: TOTP_TOLERANCE_SECONDS, ...(epoch === undefined ? {} : { epoch }) });
  if (!r.valid || !('timeStep' in r) || typeof r.timeStep !== 'number') return { valid: false };
  return { valid: true, timeStep: r.timeStep };
}

/** True when a code of `timeStep` may be accepted after the last accepted step (replay guard). */
export function isFreshStep(timeStep: number, lastUsedStep: number | null | undefined): boolean {
  return lastUsedStep === null || lastUsedStep === undefined || timeStep > lastUsedStep;
}
