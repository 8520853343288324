import { z } from 'zod';
import { listExternalLogins } from '../domain/external-sign-in/external-logins';
import { deleteOwnExternalLink, deleteUserExternalLink, listOwnExternalLinks, listUserExternalLinks } from '../domain/external-sign-in/external-links';
import { externalLinkSchema, externalLoginSchema } from '../domain/login-providers/schemas';
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
