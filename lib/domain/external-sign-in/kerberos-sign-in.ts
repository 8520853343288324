import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { logWarn } from '../../log/logger';
import { realmDb, type DomainContext } from '../../realm/context';
import { acceptSpnegoToken, kerberosAvailability, KerberosKeytabError, KerberosUnavailableError, userNameInRealm } from '../external-identity/kerberos/spnego';
import { readProviderSecret } from '../login-providers/provider-secret';
import { activeProvider } from '../login-providers/repo';
import { signInWithUpstream, type ExternalSignInResult } from './link-or-create';

// Kerberos sign-in (CONTRACT.md "External identity"): GET /api/account/negotiate/{id} answers 401
// `WWW-Authenticate: Negotiate`; the browser (in the Windows domain, or with a ticket from kinit)
// comes back with `Authorization: Negotiate <SPNEGO token>`, which the provider's keytab accepts.
// The identity is the client principal of the provider's Kerberos realm (issuer `krb5:<REALM>`).

export type NegotiateResult =
  | { kind: 'challenge' }
  /** The token did not prove a ticket for this service: challenge again (the browser may try another). */
  | { kind: 'rejected' }
  | { kind: 'done'; result: ExternalSignInResult; mutualToken?: string };

export async function negotiate(ctx: DomainContext, providerId: string, authorization: string | null): Promise<NegotiateResult> {
  const db = await realmDb(ctx.realm);
  const provider = await activeProvider(db, providerId, 'Kerberos');
  if (!provider?.config.Kerberos) throw new AppError('LoginProvider.NotFound');
  const available = await kerberosAvailability();
  if (!available.available) throw new AppError('ExternalLogin.Unavailable', { detail: `Kerberos is not available on this server: ${available.reason}` });
  const token = /^Negotiate\s+([A-Za-z0-9+/=]{8,65536})\s*$/i.exec(authorization ?? '')?.[1];
  if (!token) return { kind: 'challenge' };
  const keytab = await readProviderSecret(db, provider.id);
  if (!keytab) throw new AppError('ExternalLogin.Unavailable', { detail: `${provider.name} has no keytab yet.` });
  const { Realm, ServicePrincipal } = provider.config.Kerberos;
  let accepted: Awaited<ReturnType<typeof acceptSpnegoToken>>;
  try {
    accepted = await acceptSpnegoToken(Buffer.from(keytab, 'base64'), ServicePrincipal, token);
  } catch (e) {
    if (e instanceof KerberosUnavailableError || e instanceof KerberosKeytabError) {
      logWarn('Kerberos provider cannot accept tickets', { loginProviderId: provider.id, reason: e.message });
      throw new AppError('ExternalLogin.Unavailable', { detail: `${provider.name} cannot accept Kerberos tickets: ${e.message}` });
    }
    throw e;
  }
  const userName = accepted && userNameInRealm(accepted.principal, Realm);
  if (!accepted || !userName) {
    await publish(
      eventFrom(ctx, 'auth.external-login-refused', undefined, {
        success: false,
        reason: accepted ? 'principal-of-another-realm' : 'invalid-ticket',
        loginProviderId: provider.id,
        provider: provider.name,
      }),
    );
    return { kind: 'rejected' };
  }
  const identity = {
    issuer: `krb5:${Realm}`,
    subject: accepted.principal,
    claims: { principal: accepted.principal, userName, realm: Realm },
    emailVerified: false,
    userName,
  };
  return { kind: 'done', result: await signInWithUpstream(ctx, provider, identity), mutualToken: accepted.responseToken };
}
