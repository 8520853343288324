import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import {
  checkDefaultGroups,
  checkSamlSettings,
  checkUpstreamAddresses,
  checkUpstreamAuthority,
  checkUserUpdateScript,
  configFromBody,
} from './provider-settings';
import { requireProviderRow, type ProviderRow } from './repo';
import type { CreateLoginProviderInput } from './schemas';

// POST /api/admin/login-providers (spec 4.7, CONTRACT.md "External identity"). The secret is set
// separately (set-provider-secret.ts); a SAML provider's SP key pair is made on first use.
export async function createLoginProvider(ctx: DomainContext, input: CreateLoginProviderInput): Promise<ProviderRow> {
  await requirePermission(ctx, 'login-provider:write');
  const db = await realmDb(ctx.realm);
  const id = newId();
  const config = configFromBody(input.Flavor, input, undefined);
  checkSamlSettings(config);
  checkUpstreamAddresses(config);
  await checkUserUpdateScript(config);
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        await checkDefaultGroups(ctx, tx, config);
        await checkUpstreamAuthority(ctx, tx, config, undefined);
        await tx.loginProvider.create({
          data: {
            id,
            name: input.Name,
            flavor: input.Flavor,
            slug: input.Flavor === 'Saml' ? input.Slug : null,
            isActive: input.IsActive ?? true,
            config: JSON.stringify(config),
          },
        });
      }),
    'LoginProvider.SlugTaken',
  );
  await publish(eventFrom(ctx, 'login-provider.created', id, { loginProviderId: id, flavor: input.Flavor }));
  return requireProviderRow(db, id);
}
