import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { readPendingCookie } from '../auth/pending-cookie';
import { deleteOwnPasskey } from '../domain/passkeys/delete-passkey';
import { listOwnPasskeys } from '../domain/passkeys/list-passkeys';
import { loginWithPasskey, passkeyLoginOptions } from '../domain/passkeys/login-with-passkey';
import { passkeyRegistrationOptions, registerPasskey } from '../domain/passkeys/register-passkey';
import { defineEndpoint } from '../http/endpoint';
import { applySignInOutcome } from '../http/sign-in-response';
import { loginOutcomeSchema } from './account-endpoints';
import { passkeyNameSchema, passkeySchema } from '../domain/passkeys/schemas';

// Passkeys (spec 4.3, 5.5; CONTRACT.md "Account bodies"). Options are the JSON @simplewebauthn/server
// makes, to hand to @simplewebauthn/browser as `{ optionsJSON }`; the finishing calls take the
// browser's response JSON as is. The options' `challenge` names the ceremony (5 minutes, single
// use), so neither a cookie nor a ceremony id has to travel between the two calls.
const tags = ['Passkeys'] as const;

const b64url = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'Expected base64url.');
const credentialId = b64url.max(1_366);
const attachment = z.enum(['platform', 'cross-platform']).nullish();
const extensionResults = z.record(z.string(), z.unknown()).nullish();

const registrationResponseSchema = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url,
    authenticatorData: b64url.nullish(),
    transports: z.array(z.string().max(32)).max(10).nullish(),
    publicKeyAlgorithm: z.number().int().nullish(),
    publicKey: b64url.nullish(),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
  /** Optional name of the passkey, beside the authenticator's fields. */
  DisplayName: z.string().trim().max(100).nullish(),
});

const authenticationResponseSchema = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.object({ clientDataJSON: b64url, authenticatorData: b64url, signature: b64url, userHandle: b64url.max(256).nullish() }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
});

/** Drops nulls: the library expects absent members, JSON clients may send null. */
function withoutNulls<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v === null ? undefined : v))) as T;
}

// The options are WebAuthn's JSON dictionaries, closed as the specification and the library's types
// declare them (PublicKeyCredentialCreationOptionsJSON, ...RequestOptionsJSON), so the handler's value
// is checked against them at compile time. `prf` is left out: its inputs are binary and never set here.
const descriptor = z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() });
const extensions = z
  .object({ appid: z.string().optional(), credProps: z.boolean().optional(), hmacCreateSecret: z.boolean().optional(), minPinLength: z.boolean().optional() })
  .optional();

const creationOptionsSchema = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(descriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.string().optional(),
      userVerification: z.string().optional(),
    })
    .optional(),
  attestation: z.string().optional(),
  attestationFormats: z.array(z.string()).optional(),
  extensions,
  hints: z.array(z.string()).optional(),
});

const requestOptionsSchema = z.object({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(descriptor).optional(),
  userVerification: z.string().optional(),
  extensions,
  hints: z.array(z.string()).optional(),
});

export const listPasskeysEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/passkey',
  summary: "The signed-in user's passkeys (those valid for the realm's current PrimaryDomain)",
  tags,
  auth: 'user',
  response: z.array(passkeySchema),
  handler: async ({ ctx }) => listOwnPasskeys(ctx),
});

export const passkeyRegisterOptionsEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/passkey/register-options',
  summary: 'Start adding a passkey: WebAuthn creation options (discoverable credential, user verification required)',
  tags,
  auth: 'user',
  body: passkeyNameSchema,
  response: creationOptionsSchema,
  handler: async ({ ctx, body }) => passkeyRegistrationOptions(ctx, body.DisplayName),
});

export const passkeyRegisterEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/passkey/register',
  summary: "Finish adding a passkey with the browser's RegistrationResponseJSON (optionally with DisplayName beside its fields)",
  tags,
  auth: 'user',
  bodyLimit: 64 * 1024,
  body: registrationResponseSchema,
  response: passkeySchema,
  handler: async ({ ctx, body }) => {
    const { DisplayName, ...response } = body;
    return registerPasskey(
      ctx,
      withoutNulls<RegistrationResponseJSON>({ ...response, clientExtensionResults: response.clientExtensionResults ?? {} }),
      DisplayName,
    );
  },
});

export const passkeyLoginOptionsEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/passkey/login-options',
  summary: 'WebAuthn request options: for a UserName (its credentials) or usernameless (discoverable credentials)',
  tags,
  auth: 'anonymous',
  rateLimit: 'passkey-login',
  body: z.object({ UserName: z.string().trim().max(256).nullish() }),
  response: requestOptionsSchema,
  handler: async ({ ctx, body, request }) => passkeyLoginOptions(ctx, body.UserName, readPendingCookie(request.headers.get('cookie'))),
});

export const passkeyLoginEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/passkey/login',
  summary: "Sign in with the browser's AuthenticationResponseJSON; also finishes a sign-in waiting for its second factor",
  tags,
  auth: 'anonymous',
  rateLimit: 'passkey-login',
  bodyLimit: 64 * 1024,
  body: authenticationResponseSchema,
  response: loginOutcomeSchema,
  handler: async ({ ctx, body, request, headers }) => {
    const response = withoutNulls<AuthenticationResponseJSON>({ ...body, clientExtensionResults: body.clientExtensionResults ?? {} });
    return applySignInOutcome(await loginWithPasskey(ctx, response, readPendingCookie(request.headers.get('cookie'))), headers);
  },
});

export const deletePasskeyEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/account/passkey/{id}',
  summary: 'Remove one of your passkeys (409 Idp.LastAuthMethod when it is your last way to sign in)',
  tags,
  auth: 'user',
  params: z.object({ id: z.string().min(1).max(64) }),
  status: 204,
  handler: async ({ ctx, params }) => deleteOwnPasskey(ctx, params.id),
});
