import { z } from 'zod';
import { clearedSessionCookie } from '../auth/session-cookie';
import { listMySessions, revokeMyBrowserSession, revokeMyClientSession, revokeMyOtherSessions, signOutEverywhere } from '../domain/sessions/my-sessions';
import { defineEndpoint } from '../http/endpoint';
import { mySessionsSchema } from '../domain/sessions/schemas';

// Sessions (spec 4.6): the signed-in person's browser sessions and native/OAuth client sessions.
const tags = ['Sessions'];
const id = z.object({ id: z.string().min(1).max(200) });

export const listSessionsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/auth/sessions',
  summary: 'Your browser sessions and your native/OAuth client sessions',
  tags,
  auth: 'user',
  response: mySessionsSchema,
  handler: async ({ ctx }) => listMySessions(ctx),
});

export const revokeSessionEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/auth/sessions/{id}',
  summary: 'Sign out another browser session of yours',
  tags,
  auth: 'user',
  params: id,
  status: 204,
  handler: async ({ ctx, params }) => revokeMyBrowserSession(ctx, params.id),
});

export const revokeClientSessionEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/auth/sessions/client/{id}',
  summary: 'End a native/OAuth client session and revoke its tokens',
  tags,
  auth: 'user',
  params: id,
  status: 204,
  handler: async ({ ctx, params }) => revokeMyClientSession(ctx, params.id),
});

export const revokeOtherSessionsEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/auth/sessions/others',
  summary: 'Sign out every browser session but this one',
  tags,
  auth: 'user',
  status: 204,
  handler: async ({ ctx }) => {
    await revokeMyOtherSessions(ctx);
  },
});

export const signOutEverywhereEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/auth/sessions',
  summary: 'Sign out everywhere: every browser session, this one included, and every client session',
  tags,
  auth: 'user',
  status: 204,
  handler: async ({ ctx, headers }) => {
    await signOutEverywhere(ctx);
    headers.append('set-cookie', clearedSessionCookie());
  },
});
