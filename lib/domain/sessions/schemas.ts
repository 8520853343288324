import { z } from 'zod';

// Wire shapes of /api/auth/sessions (spec 4.6): the signed-in person's browser sessions and
// native/OAuth client sessions. Pure, so the account UI reads its types from here too.

export const browserSessionSchema = z.object({
  Id: z.string(),
  IsCurrent: z.boolean(),
  CreatedAt: z.date(),
  LastSeenAt: z.date(),
  ExpiresAt: z.date(),
  IpAddress: z.string().optional(),
  UserAgent: z.string().optional(),
  Methods: z.array(z.string()),
});

export const clientSessionSchema = z.object({
  Id: z.string(),
  ClientId: z.string(),
  ClientName: z.string(),
  Scopes: z.array(z.string()),
  CreatedAt: z.date(),
  ExpiresAt: z.date().optional(),
});

export const mySessionsSchema = z.object({ Sessions: z.array(browserSessionSchema), ClientSessions: z.array(clientSessionSchema) });
