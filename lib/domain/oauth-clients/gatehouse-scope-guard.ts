import { MAIN_APP_SLUG } from '../../authz/catalog';
import { hasPermission } from '../../authz/evaluate';
import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../../realm/context';
import { freshAuthority } from '../groups/grant-change-guard';
import { GATEHOUSE_SCOPE_PERMISSION, gatehouseScopesIn } from '../oauth-scopes/gatehouse-scopes';

/**
 * A client carrying one of Gatehouse's own scopes acts on Gatehouse with whatever the scope admits
 * (issue 8 item 4): `oauth-client:write` alone must not hand that out, nor take over (redirect URIs,
 * consent type, secret) a client that already has it. Whoever creates or changes such a client must
 * hold the permission each of its Gatehouse scopes needs (GATEHOUSE_SCOPE_PERMISSION). Called inside
 * the transaction that commits, on the scopes of the stored row and of the state being written, with
 * the caller's permissions read afresh under the permission-graph lock.
 */
export async function assertMayHandleGatehouseScopes(ctx: DomainContext, tx: RealmTx, scopes: Iterable<string>): Promise<void> {
  if (ctx.actor.kind === 'system') return;
  const ours = gatehouseScopesIn(scopes);
  if (!ours.length) return;
  // The caller's authority on the state that commits, as for every no-escalation check. A dynamic
  // registrant holds none: it never gets, nor changes a client that has, one of these scopes.
  const grants = ctx.actor.kind === 'registrant' ? new Set<string>() : ((await freshAuthority(ctx, tx)).get(MAIN_APP_SLUG) ?? new Set<string>());
  const missing = ours.filter((s) => !hasPermission(grants, GATEHOUSE_SCOPE_PERMISSION[s]));
  if (missing.length) {
    throw new AppError('OAuthClient.GatehouseScopeForbidden', {
      detail: missing.map((s) => `Scope ${s} requires ${GATEHOUSE_SCOPE_PERMISSION[s]}.`).join(' '),
      extensions: { scopes: missing },
    });
  }
}
