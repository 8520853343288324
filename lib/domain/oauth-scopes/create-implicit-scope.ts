import { requirePermission } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../../realm/context';
import { insertScope } from './create-scope';
import type { ScopeRow } from './repo';
import { requireApiRow } from '../oauth-apis/repo';

// POST /api/admin/oauth/apis/{id}/create-implicit-scope (spec 4.7; needs oauth-scope:write): the
// one-click scope for an API, named after its audience (the usual convention for resource scopes,
// and audiences are valid scope tokens, audience.ts) and granting exactly that audience. A scope
// of that name already existing answers 409 OAuthScope.NameTaken.
export async function createImplicitScope(ctx: DomainContext, apiId: string): Promise<ScopeRow> {
  await requirePermission(ctx, 'oauth-scope:write');
  const api = await requireApiRow(await realmDb(ctx.realm), apiId);
  return insertScope(
    ctx,
    { name: api.audience, displayName: api.displayName ?? api.name, description: `Access to ${api.name}`, resources: [api.audience] },
    { apiId: api.id, implicit: true },
  );
}
