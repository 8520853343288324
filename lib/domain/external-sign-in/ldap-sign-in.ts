import { logWarn } from '../../log/logger';
import { realmDb } from '../../realm/context';
import { authenticateLdapUser, LdapUnavailableError, type LdapEntry } from '../external-identity/ldap/ldap-directory';
import type { UpstreamIdentity } from '../external-identity/upstream-identity';
import { readProviderSecret } from '../login-providers/provider-secret';
import { readProviderRows, type ProviderRow } from '../login-providers/repo';
import type { DirectoryCheck } from '../auth/password-login';
import { signInWithUpstream } from './link-or-create';

// LDAP sign-in (CONTRACT.md "External identity"): POST /api/account/login with a name and password
// that no local password matches is checked against the realm's active LDAP providers, in name
// order; the first directory that accepts them signs the person in. The caller (password-login.ts)
// has already counted the attempt against the login rate limits.

/** The DirectoryCheck of password-login.ts: `none` without an active LDAP provider; `unavailable` (503, not 401) when none accepted and one could not be asked. */
export const ldapSignIn: DirectoryCheck = async (ctx, userName, password) => {
  const db = await realmDb(ctx.realm);
  const providers = await readProviderRows(db, { flavor: 'Ldap', isActive: true });
  if (!providers.length) return { kind: 'none' };
  const unavailable: string[] = [];
  for (const provider of providers) {
    const section = provider.config.Ldap;
    if (!section) continue;
    let entry: LdapEntry | null;
    try {
      entry = await authenticateLdapUser(section, provider.hasSecret ? await readProviderSecret(db, provider.id) : undefined, userName, password, {
        caCertPem: section.CaCertificate ?? undefined,
      });
    } catch (e) {
      if (!(e instanceof LdapUnavailableError)) throw e;
      // An operator's problem, said where operators look; the person gets 503 or tries the next directory.
      logWarn('LDAP directory unavailable', { realm: ctx.realm.slug, loginProviderId: provider.id, provider: provider.name, reason: e.message });
      unavailable.push(provider.name);
      continue;
    }
    if (entry) {
      const result = await signInWithUpstream(ctx, provider, identityOf(provider, entry));
      // The login route is anonymous, so a directory sign-in never links to a signed-in person.
      return result.kind === 'signed-in' ? { kind: 'signed-in', outcome: result.outcome } : { kind: 'rejected' };
    }
  }
  return unavailable.length ? { kind: 'unavailable', providers: unavailable } : { kind: 'rejected' };
};

/**
 * A directory entry as an upstream identity: the issuer is the directory's URL, the subject its
 * entryUUID when it has one (it survives a rename), else the DN. The directory is the organisation's
 * own record, so its `mail` counts as vouched for.
 */
function identityOf(provider: ProviderRow, entry: LdapEntry): UpstreamIdentity {
  const uuid = entry.attributes.entryUUID;
  return {
    issuer: `ldap:${provider.config.Ldap!.Url.toLowerCase()}`,
    subject: typeof uuid === 'string' && uuid ? uuid : entry.dn,
    claims: { ...entry.attributes, dn: entry.dn },
    email: entry.mail,
    emailVerified: !!entry.mail,
    userName: entry.uid,
    firstname: entry.givenName,
    lastname: entry.sn,
  };
}
