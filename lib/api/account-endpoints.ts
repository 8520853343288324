import { z } from 'zod';
import { clearedSessionCookie, sessionCookie } from '../auth/session-cookie';
import { currentUser } from '../domain/auth/current-user';
import { logout } from '../domain/auth/logout';
import { endUpstreamSession } from '../domain/external-sign-in/external-logout';
import { ldapSignIn } from '../domain/external-sign-in/ldap-sign-in';
import { passwordLogin } from '../domain/auth/password-login';
import { loginBodySchema, passwordRule } from '../domain/credential-rules';
import { redeemAdminInvite } from '../domain/invites/redeem-admin-invite';
import { defineEndpoint } from '../http/endpoint';
import { applySignInOutcome } from '../http/sign-in-response';

// Sign-in and the signed-in user (spec 4.1, 4.2, 5.5). Login outcomes keep the spec's lower-case
// spelling (CONTRACT.md "Wire rules").
const sessionOutcome = z.object({ authenticated: z.literal(true), userId: z.string(), userName: z.string() });
export const loginOutcomeSchema = z.union([
  sessionOutcome.extend({ requiresSecureSetup: z.literal(true).optional(), gracePeriod: z.literal(true).optional(), secureSetupDueAt: z.date().optional() }),
  z.object({ requiresTwoFactor: z.literal(true), mfaMethods: z.array(z.enum(['totp', 'email-otp', 'passkey'])) }),
  z.object({ requiresSecureSetup: z.literal(true), gracePeriod: z.literal(false) }),
]);

export const loginEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/login',
  summary: 'Password login (UserName may also be the e-mail address)',
  tags: ['Account'],
  auth: 'anonymous',
  rateLimit: 'login',
  body: loginBodySchema,
  response: loginOutcomeSchema,
  handler: async ({ ctx, body, headers }) => applySignInOutcome(await passwordLogin(ctx, body.UserName, body.Password, ldapSignIn), headers),
});

export const logoutEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/logout',
  summary: 'Sign out: the browser session is invalidated and the cookie removed',
  tags: ['Account'],
  auth: 'optional',
  body: z.object({ EndIdpSession: z.boolean().nullish() }),
  response: z.object({ SignedOut: z.boolean(), LogoutUrl: z.string().nullish() }),
  handler: async ({ ctx, body, headers }) => {
    // EndIdpSession: also end the session at the upstream the person signed in with, when that is a
    // live OIDC provider: the browser goes on to LogoutUrl (spec 4.1).
    const logoutUrl = body.EndIdpSession ? await endUpstreamSession(ctx) : (await logout(ctx), undefined);
    headers.append('set-cookie', clearedSessionCookie());
    return { SignedOut: true, LogoutUrl: logoutUrl ?? null };
  },
});

export const meEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/me',
  summary: 'The signed-in user, effective permissions and realm slug',
  tags: ['Account'],
  auth: 'user',
  response: z.object({
    Id: z.string(),
    UserName: z.string(),
    Email: z.string(),
    EmailConfirmed: z.boolean(),
    Firstname: z.string().nullish(),
    Lastname: z.string().nullish(),
    Acronym: z.string().nullish(),
    Realm: z.string(),
    RealmDisplayName: z.string(),
    IsControlPlane: z.boolean(),
    Permissions: z.array(z.string()),
    ControlPlanePermissions: z.array(z.string()).optional(),
  }),
  handler: async ({ ctx }) => currentUser(ctx),
});

export const bootstrapAdminEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/bootstrap-admin',
  summary: 'Redeem the first-administrator invite: choose a password and sign in',
  tags: ['Account'],
  auth: 'anonymous',
  rateLimit: 'bootstrap',
  body: z.object({ Token: z.string().min(1).max(200), Password: passwordRule() }),
  response: sessionOutcome,
  handler: async ({ ctx, body, headers }) => {
    const { sessionToken, userId, userName } = await redeemAdminInvite(ctx, body.Token, body.Password);
    headers.append('set-cookie', sessionCookie(sessionToken));
    return { authenticated: true as const, userId, userName };
  },
});
