import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { AppError, validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { isExternalFlavor } from './provider-config';
import {
  checkDefaultGroups,
  checkSamlSettings,
  checkUpstreamAddresses,
  checkUpstreamAuthority,
  checkUserUpdateScript,
  configFromBody,
} from './provider-settings';
import { requireProviderRow, type ProviderRow } from './repo';
import { createLoginProviderSchema, type UpdateLoginProviderInput } from './schemas';

// PUT /api/admin/login-providers/{id}: replaces the settings (CONTRACT.md: Flavor is immutable).
// The built-in Internal provider rejects edits (spec 2.5). Every change bumps `version`, which is
// what caches of upstream clients are keyed by, so each instance picks the change up on next use.
export async function updateLoginProvider(ctx: DomainContext, id: string, input: UpdateLoginProviderInput): Promise<ProviderRow> {
  await requirePermission(ctx, 'login-provider:write');
  const db = await realmDb(ctx.realm);
  const current = await requireProviderRow(db, id);
  if (current.isBuiltIn || !isExternalFlavor(current.flavor)) throw new AppError('LoginProvider.BuiltIn');
  const flavor = current.flavor;
  if (input.Flavor && input.Flavor !== flavor) throw validationError({ Flavor: [`The flavor cannot change (it is ${flavor}); create another provider.`] });
  // The same rules as a create: the flavor's section present, no other, a slug for SAML.
  const checked = createLoginProviderSchema.safeParse({ ...input, Flavor: flavor, Slug: input.Slug ?? (flavor === 'Saml' ? current.slug : null) });
  if (!checked.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of checked.error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
    throw validationError(errors);
  }
  const body = checked.data;
  const config = configFromBody(flavor, body, current.config);
  checkSamlSettings(config);
  checkUpstreamAddresses(config);
  await checkUserUpdateScript(config);
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        await checkDefaultGroups(ctx, tx, config);
        await checkUpstreamAuthority(ctx, tx, config, current.config);
        await tx.loginProvider.update({
          where: { id },
          data: {
            name: body.Name,
            slug: flavor === 'Saml' ? body.Slug : null,
            isActive: body.IsActive ?? true,
            config: JSON.stringify(config),
            version: { increment: 1 },
            updatedAt: new Date(),
          },
        });
      }),
    'LoginProvider.SlugTaken',
  );
  await publish(eventFrom(ctx, 'login-provider.updated', id, { loginProviderId: id, flavor }));
  return requireProviderRow(db, id);
}
