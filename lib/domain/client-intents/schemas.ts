import { z } from 'zod';
import { createClientSchema } from '../oauth-clients/schemas';
import { createServiceAccountSchema } from '../service-accounts/schemas';

// The body of POST /api/admin/oauth/clients (spec 4.7 "OAuth clients"): the client's fields
// (CONTRACT.md) plus the intents that make it more than a client. `PositionId` makes it that
// position's terminal (needs position:write); `ServiceAccountId` or `NewServiceAccount` makes it a
// credential of that service account (needs service-account:write), which gives whoever holds its
// secret the account's permissions. Either intent needs a Confidential client with client_credentials.

const id = z.string().trim().min(1).max(64);

/** A service account made together with its first client (its groups are given later, on its page). */
export const newServiceAccountSchema = createServiceAccountSchema.pick({ Name: true, Description: true });

export const createClientRequestSchema = createClientSchema.extend({
  PositionId: id.nullish(),
  ServiceAccountId: id.nullish(),
  NewServiceAccount: newServiceAccountSchema.nullish(),
});
export type CreateClientRequest = z.infer<typeof createClientRequestSchema>;
