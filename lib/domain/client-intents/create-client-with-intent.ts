import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import type { RealmTx } from '../../db/types';
import { AppError, validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { optionalText } from '../merge-patch';
import { guardGrantChange, type GrantChange } from '../groups/grant-change-guard';
import { clientIdTaken, createClient, insertClient, prepareClient, type CreatedClient } from '../oauth-clients/create-client';
import { requireClientRow } from '../oauth-clients/repo';
import { positionTerminalsEnabled } from '../positions/feature';
import { lockPosition } from '../positions/repo';
import { assertCanManageServiceAccount } from '../service-accounts/can-manage';
import { normalizeName } from '../service-accounts/repo';
import { intentErrors, intentsOf } from './intent-rules';
import type { CreateClientRequest } from './schemas';

// POST /api/admin/oauth/clients with intents (spec 4.7 "OAuth clients"): a position's terminal
// (needs position:write too) and/or a service account's credential client, linking an existing
// account or creating one (needs service-account:write too). Everything happens in one transaction:
// a failing client leaves no new service account behind.
//
// No escalation: the client's secret carries the account's permissions to whoever reads this
// answer, so the actor must hold everything the account's groups confer (potential view, as for
// minting a credential), checked inside the transaction under the permission-graph lock.

export async function createClientWithIntent(ctx: DomainContext, input: CreateClientRequest): Promise<CreatedClient> {
  const intents = intentsOf(input);
  if (!intents.positionId && !intents.serviceAccount) return createClient(ctx, input);
  await requirePermission(ctx, 'oauth-client:write');
  if (intents.positionId) await requirePermission(ctx, 'position:write');
  if (intents.serviceAccount) await requirePermission(ctx, 'service-account:write');
  const errors = intentErrors(input);
  if (intents.positionId && !(await positionTerminalsEnabled(ctx.realm))) (errors.PositionId ??= []).push('Positions are turned off in this realm.');
  if (Object.keys(errors).length) throw validationError(errors, 'The client does not fit what it is meant to be.');

  const db = await realmDb(ctx.realm);
  const prepared = prepareClient(input, { positionId: intents.positionId });
  const created = intents.serviceAccount && 'create' in intents.serviceAccount ? intents.serviceAccount.create : null;
  const serviceAccountId = intents.serviceAccount ? ('id' in intents.serviceAccount ? intents.serviceAccount.id : newId()) : null;
  const credentialId = newId();
  const now = new Date();

  const work = async (tx: RealmTx) => {
    if (intents.positionId) await assertTerminalPosition(tx, intents.positionId);
    if (!serviceAccountId) return insertClient(ctx, tx, input, prepared);
    if (created) {
      await tx.serviceAccount.create({
        data: {
          id: serviceAccountId,
          name: created.Name,
          nameNormalized: normalizeName(created.Name),
          description: optionalText(created.Description),
          isActive: true,
        },
      });
    }
    // Under the lock, on the account as it is now: nobody hands themselves what they do not hold.
    await assertCanManageServiceAccount(ctx, tx, serviceAccountId);
    const account = await tx.serviceAccount.findUnique({ where: { id: serviceAccountId }, select: { isActive: true } });
    if (!account) throw validationError({ ServiceAccountId: ['No service account has this id.'] });
    await insertClient(ctx, tx, { ...input, ConsentType: input.ConsentType ?? 'Implicit' }, prepared, {
      serviceAccountId,
      positionId: intents.positionId,
      // As a credential's client: it works while the account is active (update-service-account.ts keeps them in step).
      isActive: account.isActive && input.IsActive !== false,
    });
    await tx.serviceAccountCredential.create({
      data: { id: credentialId, serviceAccountId, oauthClientId: prepared.id, displayName: input.DisplayName, createdAt: now },
    });
  };

  const change = {
    permission: 'service-account:write',
    principals: serviceAccountId ? [{ kind: 'service-account', id: serviceAccountId }] : [],
  } satisfies GrantChange;
  await onUniqueViolation(
    () => db.$transaction((tx) => (serviceAccountId ? guardGrantChange(ctx, tx, change, () => work(tx)) : work(tx))),
    clientIdTaken(prepared.clientId),
    {
      nameNormalized: new AppError('ServiceAccount.NameTaken', { errors: { NewServiceAccount: [`A service account named ${created?.Name} already exists.`] } }),
    },
  );

  const { id, clientId, state } = prepared;
  if (created && serviceAccountId)
    await publish(eventFrom(ctx, 'service-account.created', serviceAccountId, { serviceAccountId, groupCount: 0, isActive: true }));
  await publish(
    eventFrom(ctx, 'oauth-client.created', id, {
      clientId,
      clientType: state.clientType,
      grantTypes: state.grantTypes,
      positionId: intents.positionId ?? undefined,
      serviceAccountId: serviceAccountId ?? undefined,
    }),
  );
  if (serviceAccountId) {
    await publish(
      eventFrom(ctx, 'service-account.credential-created', credentialId, {
        serviceAccountId,
        credentialId,
        clientId,
        scopes: [...state.scopes],
        expiresAt: null,
      }),
    );
  }
  return { row: await requireClientRow(db, id), secret: prepared.secret?.secret };
}

/** The position exists and is active, and stays so until this transaction ends (its row is locked). */
async function assertTerminalPosition(tx: RealmTx, positionId: string): Promise<void> {
  const found = await lockPosition(tx, positionId);
  if (!found.exists) throw validationError({ PositionId: ['No position has this id.'] });
  if (!found.active) throw validationError({ PositionId: ['This position is not active; activate it first.'] });
}
