import type { KoaContextWithOIDC } from 'oidc-provider';
import { errors } from 'oidc-provider';
import { domainContext, realmDb, type DomainContext } from '../../realm/context';
import { decidingApp, nativeGrantsEnabled } from '../../domain/native-grants/native-grants';
import { appIdForHost } from '../../domain/apps/request-app';
import { limitRate, limitRequestRate } from '../../domain/realm-settings/rate-limit';
import { isAppError } from '../../errors/app-error';
import { problemFromError } from '../../errors/problem';
import type { RateLimitPolicyName } from '../../rate-limit/policies';
import type { RealmRecord } from '../../realm/realm-record';
import { clientExtra } from '../client-metadata';
import { issueNativeTokens, type AccountFinder } from './issue-tokens';

// The frame every native grant shares (spec 4.4): the `NativeGrants` flag of the client's App (else
// of the App the Host routes to; lib/domain/native-grants/native-grants.ts), the rate limits per source, App and client, the proof (a domain function), then the
// tokens. Domain refusals become OAuth errors; a rate-limit refusal keeps the spec's 429 body.
export type Proof = (ctx: DomainContext) => Promise<{ accountId: string; amr: string[] }>;

export async function runNativeGrant(
  ctx: KoaContextWithOIDC,
  realm: RealmRecord,
  findAccount: AccountFinder,
  spec: { gty: string; policy: RateLimitPolicyName; prove: Proof },
): Promise<void> {
  const client = ctx.oidc.client;
  if (!client) throw new errors.InvalidClient('client authentication failed');
  const clientAppId = clientExtra(client, 'app_id');
  const dctx = domainContext(
    realm,
    { kind: 'anonymous' },
    { ip: ctx.ip, userAgent: ctx.get('user-agent') || undefined, appId: appIdForHost(realm, ctx.get('host')) },
  );
  const appId = decidingApp(dctx, typeof clientAppId === 'string' ? clientAppId : null);
  dctx.appId = appId;
  if (!(await nativeGrantsEnabled(dctx, appId))) throw new errors.UnauthorizedClient('native grants are not enabled for this application');
  let signIn: { accountId: string; amr: string[] };
  try {
    await limitRequestRate(dctx, spec.policy);
    await limitRate(dctx, spec.policy, 'client', client.clientId);
    signIn = await spec.prove(dctx);
  } catch (e) {
    if (!isAppError(e)) throw e;
    if (e.status === 429) {
      const p = problemFromError(e);
      ctx.status = 429;
      for (const [k, v] of Object.entries(p.headers)) ctx.set(k, v);
      ctx.body = p.body;
      return;
    }
    throw new errors.InvalidGrant(e.detail ?? e.message);
  }
  // These grants have no second step: an account protected by a second factor signs in through the
  // hosted pages (authorization code flow) instead.
  const user = await (await realmDb(realm)).user.findUnique({ where: { id: signIn.accountId }, select: { twoFactorEnabled: true } });
  if (user?.twoFactorEnabled) throw new errors.InvalidGrant('this account uses a second factor: sign in through the authorization endpoint');
  await issueNativeTokens(ctx, { ...signIn, gty: spec.gty }, findAccount);
}
