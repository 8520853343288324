import type { CreateClientRequest } from './schemas';

// The shape a client must have for its intents (pure, so the console can say the same before the
// round trip). A service account's client is exactly what a credential makes (spec 2.5):
// Confidential with the one grant client_credentials. A terminal authenticates as itself:
// Confidential with client_credentials among its grants.

export type ClientIntents = { positionId: string | null; serviceAccount: { id: string } | { create: { Name: string; Description?: string | null } } | null };

export function intentsOf(input: CreateClientRequest): ClientIntents {
  const linked = input.ServiceAccountId ? { id: input.ServiceAccountId } : null;
  const created = input.NewServiceAccount ? { create: input.NewServiceAccount } : null;
  return { positionId: input.PositionId || null, serviceAccount: linked ?? created };
}

/** Field errors for a body whose intents do not fit its client; empty when it is fine. */
export function intentErrors(input: CreateClientRequest): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const grants = new Set(input.GrantTypes);
  if (input.ServiceAccountId && input.NewServiceAccount) add('NewServiceAccount', 'Either link an existing service account or create a new one, not both.');
  if (input.ServiceAccountId || input.NewServiceAccount) {
    if (input.ClientType !== 'Confidential') add('ClientType', "A service account's client must be Confidential.");
    if (grants.size !== 1 || !grants.has('client_credentials')) add('GrantTypes', "A service account's client has exactly one grant: client_credentials.");
  }
  return errors;
}
