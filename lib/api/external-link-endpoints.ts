import { z } from 'zod';
import { externalLoginCookie } from '../auth/external-login-cookie';
import { clearedPendingLinkCookie, readPendingLinkCookie } from '../auth/pending-link-cookie';
import { samlBrowserCookie } from '../auth/saml-browser-cookie';
import { listExternalLogins } from '../domain/external-sign-in/external-logins';
import { deleteOwnExternalLink, deleteUserExternalLink, listOwnExternalLinks, listUserExternalLinks } from '../domain/external-sign-in/external-links';
import { cancelPendingLink, confirmPendingLink, pendingLinkOf } from '../domain/external-sign-in/pending-link';
import { startLink } from '../domain/external-sign-in/start-link';
import { externalLinkSchema, externalLoginSchema, pendingLinkSchema, startLinkAnswerSchema, startLinkSchema } from '../domain/login-providers/schemas';
import { defineEndpoint } from '../http/endpoint';

// Linked upstream identities (spec 3.6, 4.5; CONTRACT.md "External identity") and the public list
// of external sign-in entry points.
const linkParams = z.object({ linkId: z.string().min(1).max(64) });
const userLinkParams = z.object({ id: z.string().min(1).max(64), linkId: z.string().min(1).max(64) });

export const externalLoginsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/external-logins',
  summary: 'The active OIDC and SAML login providers, without secrets: Kind selects the entry point; SAML ones carry their Slug',
  tags: ['External login'],
  auth: 'anonymous',
  response: z.array(externalLoginSchema),
  handler: async ({ ctx }) => listExternalLogins(ctx),
});

export const ownExternalLinksEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/external-links',
  summary: 'The signed-in person’s linked external identities',
  tags: ['External login'],
  auth: 'user',
  response: z.array(externalLinkSchema),
  handler: async ({ ctx }) => listOwnExternalLinks(ctx),
});

export const deleteOwnExternalLinkEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/account/external-links/{linkId}',
  summary: 'Disconnect a linked identity (400 Idp.LastAuthMethod when it is the last way to sign in)',
  tags: ['External login'],
  auth: 'user',
  params: linkParams,
  status: 204,
  handler: async ({ ctx, params }) => deleteOwnExternalLink(ctx, params.linkId),
});

// Linking is an explicit act (issue 30 item 6; docs/external-identity.md "Linking"): the account
// page starts it with a CSRF-checked POST, the upstream's answer waits for the person's confirmation,
// and only the confirmation's POST, from the same session, links. A navigation to the sign-in start
// (GET /api/account/external-login/{id}/start, /saml/{slug}/login) never links, signed in or not.

export const startExternalLinkEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/external-links/start',
  summary: 'Start linking an OIDC or SAML provider to you: answers the upstream sign-in URL to navigate to; the link waits for your confirmation',
  tags: ['External login'],
  auth: 'user',
  rateLimit: 'external-login',
  body: startLinkSchema,
  response: startLinkAnswerSchema,
  handler: async ({ ctx, body, headers }) => {
    const started = await startLink(ctx, body.LoginProviderId);
    const cookie = started.flavor === 'Oidc' ? externalLoginCookie(started.state) : samlBrowserCookie(started.browser);
    if (cookie) headers.append('set-cookie', cookie);
    headers.set('cache-control', 'no-store');
    return { Location: started.location };
  },
});

export const pendingExternalLinkEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/external-links/pending',
  summary: 'The upstream account waiting for your confirmation to be linked (404 when none is, or it was asked for in another session)',
  tags: ['External login'],
  auth: 'user',
  response: pendingLinkSchema,
  handler: async ({ ctx, request }) => pendingLinkOf(ctx, readPendingLinkCookie(request.headers.get('cookie'))),
});

export const confirmExternalLinkEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/external-links/confirm',
  summary: 'Link the upstream account waiting for your confirmation to you (from the session that asked for it)',
  tags: ['External login'],
  auth: 'user',
  rateLimit: 'external-login',
  status: 204,
  handler: async ({ ctx, request, headers }) => {
    headers.append('set-cookie', clearedPendingLinkCookie());
    await confirmPendingLink(ctx, readPendingLinkCookie(request.headers.get('cookie')));
  },
});

export const cancelExternalLinkEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/account/external-links/pending',
  summary: 'Decline the link waiting for your confirmation',
  tags: ['External login'],
  auth: 'user',
  status: 204,
  handler: async ({ ctx, request, headers }) => {
    headers.append('set-cookie', clearedPendingLinkCookie());
    await cancelPendingLink(ctx, readPendingLinkCookie(request.headers.get('cookie')));
  },
});

export const userExternalLinksEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/admin/users/{id}/external-links',
  summary: 'A user’s linked external identities',
  tags: ['User administration'],
  auth: 'user',
  permission: 'user:read',
  params: z.object({ id: z.string().min(1).max(64) }),
  response: z.array(externalLinkSchema),
  handler: async ({ ctx, params }) => listUserExternalLinks(ctx, params.id),
});

export const deleteUserExternalLinkEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/admin/users/{id}/external-links/{linkId}',
  summary: 'Force-unlink an external identity (400 Idp.LastAuthMethod when it is the user’s last way to sign in)',
  tags: ['User administration'],
  auth: 'user',
  permission: 'user:write',
  params: userLinkParams,
  status: 204,
  handler: async ({ ctx, params }) => deleteUserExternalLink(ctx, params.id, params.linkId),
});
