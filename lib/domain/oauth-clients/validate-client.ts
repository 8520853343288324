import type { RealmTx } from '../../db/types';
import { validationError } from '../../errors/app-error';
import { unknownScopes } from '../oauth-scopes/repo';
import { clientRuleErrors, type ClientShape } from './client-rules';

// The whole check of the state a create or an update would leave (spec 4.7 "OAuth clients"): the
// pure rules plus what needs the realm's storage (the scopes exist, the App exists). Every problem
// is reported at once, as one 400 Validation.Failed with a field map.

export type ClientState = ClientShape & { scopes: readonly string[]; appId: string | null; positionId: string | null };

export async function assertClientValid(tx: RealmTx, state: ClientState): Promise<void> {
  const errors = clientRuleErrors(state);
  const unknown = await unknownScopes(tx, state.scopes);
  if (unknown.length) errors.Scopes = [`Unknown scopes: ${unknown.join(', ')}. Create them under /api/admin/oauth/scopes first.`];
  if (state.appId && !(await tx.app.findUnique({ where: { id: state.appId }, select: { id: true } }))) {
    errors.AppId = ['No application has this id.'];
  }
  if (Object.keys(errors).length) throw validationError(errors, 'The client configuration is not valid.');
}
