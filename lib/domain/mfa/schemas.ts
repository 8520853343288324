import { z } from 'zod';

// Wire shapes of the two-factor routes the account UI reads (spec 4.3; `mfa/status` is lower-case
// as the spec writes it). Pure, so the browser imports its types from here.

export const mfaStatusSchema = z.object({ enabled: z.boolean(), hasAuthenticator: z.boolean() });
export const mfaSetupSchema = z.object({ SharedKey: z.string(), AuthenticatorUri: z.string(), QrCodeSvg: z.string() });
