import { FilterParser, InappropriateAuthError, InvalidCredentialsError, type Client, type Entry } from 'ldapts';
import type { LdapSection } from '../sections';
import { LdapUnavailableError, ldapStep, withLdapConnection, type LdapConnectionOptions } from './ldap-connection';
import { userSearchFilter } from './ldap-filter';

export { LdapUnavailableError, type LdapConnectionOptions } from './ldap-connection';
export { escapeLdapFilterValue } from './ldap-filter';

// A login provider's directory, asked the way directories expect (bind-and-search, RFC 4513): bind as
// the service account (or stay anonymous without BindDn), find the one entry the sign-in name
// designates under UserSearchBase, then bind as that entry with the password typed. Pure: no
// database and no realm; the caller links the entry to a person (CONTRACT.md "External identity").

export type LdapEntry = {
  dn: string;
  uid?: string;
  mail?: string;
  givenName?: string;
  sn?: string;
  cn?: string;
  /** The entry's readable attributes (first-class ones included), without passwords, keys or binary values. */
  attributes: Record<string, string | string[]>;
};

/** Longer names are refused before asking the directory; no directory's naming attribute is this long. */
const MAX_USERNAME_LENGTH = 256;

/**
 * The entry when `password` is that person's, null for a wrong name or password (unknown, ambiguous,
 * refused, or empty). Throws LdapUnavailableError when the directory cannot answer.
 */
export async function authenticateLdapUser(
  section: LdapSection,
  bindPassword: string | undefined,
  username: string,
  password: string,
  opts?: LdapConnectionOptions,
): Promise<LdapEntry | null> {
  // A simple bind with a DN and an empty password is an "unauthenticated bind" (RFC 4513 section
  // 5.1.2) that many servers accept as anonymous: it would let anyone in without a password.
  if (!password || !username || username.length > MAX_USERNAME_LENGTH) return null;
  try {
    // An escaped name cannot unbalance a filter, so the configured one is checked with a plain name (ldapts
    // would otherwise report the error with the name typed in it, which may be a mistyped password).
    FilterParser.parseString(userSearchFilter(section.UserSearchFilter, 'name'));
  } catch (e) {
    throw new LdapUnavailableError('config', `UserSearchFilter ${section.UserSearchFilter} is not a valid LDAP filter.`, { cause: e });
  }
  const filter = userSearchFilter(section.UserSearchFilter, username);
  return withLdapConnection(section, opts, async (client) => {
    await serviceBind(client, section, bindPassword);
    const { searchEntries } = await ldapStep(section, 'search', () =>
      // Two are enough to tell one from several; entryUUID (RFC 4530) is the stable id if the DN is renamed.
      client.search(section.UserSearchBase, { scope: 'sub', filter, sizeLimit: 2, attributes: ['*', 'entryUUID'] }),
    );
    if (searchEntries.length !== 1) return null;
    const entry = searchEntries[0];
    const accepted = await ldapStep(section, 'user-bind', async () => {
      try {
        await client.bind(entry.dn, password);
        return true;
      } catch (e) {
        if (e instanceof InvalidCredentialsError || e instanceof InappropriateAuthError) return false;
        throw e;
      }
    });
    return accepted ? toLdapEntry(entry) : null;
  });
}

export type LdapConnectionTest = { ok: true; entries: number } | { ok: false; reason: string };

/** The console's "test connection": connect, StartTLS if set, the service bind, and a base search of UserSearchBase. */
export async function testLdapConnection(section: LdapSection, bindPassword: string | undefined, opts?: LdapConnectionOptions): Promise<LdapConnectionTest> {
  try {
    const entries = await withLdapConnection(section, opts, async (client) => {
      await serviceBind(client, section, bindPassword);
      const { searchEntries } = await ldapStep(section, 'search', () =>
        client.search(section.UserSearchBase, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'], sizeLimit: 1 }),
      );
      return searchEntries.length;
    });
    return { ok: true, entries };
  } catch (e) {
    if (e instanceof LdapUnavailableError) return { ok: false, reason: e.message };
    throw e;
  }
}

async function serviceBind(client: Client, section: LdapSection, bindPassword: string | undefined): Promise<void> {
  // Without BindDn the search runs anonymously: an LDAPv3 connection starts out anonymous.
  const bindDn = section.BindDn;
  if (!bindDn) return;
  // An empty password would be an unauthenticated bind, which "succeeds" as anonymous and hides the mistake.
  if (!bindPassword) throw new LdapUnavailableError('service-bind', `BindDn ${bindDn} is set but no bind password is stored for it.`);
  await ldapStep(section, 'service-bind', () => client.bind(bindDn, bindPassword));
}

// Secrets a service account may be allowed to read, and values that are binary (ldapts would hand them
// over as mangled text): none of them belongs in the claims a UserUpdateScript sees.
const HIDDEN_ATTRIBUTE =
  /password|pwd|secret|krbprincipalkey|krbextradata|^(jpegphoto|photo|thumbnailphoto|usercertificate|cacertificate|usersmimecertificate|userpkcs12|objectsid|objectguid)(;|$)/i;

function toLdapEntry(entry: Entry): LdapEntry {
  const attributes: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(entry)) {
    if (name === 'dn' || HIDDEN_ATTRIBUTE.test(name)) continue;
    if (typeof value === 'string') attributes[name] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) attributes[name] = value;
  }
  const first = (attribute: string): string | undefined => {
    const key = Object.keys(attributes).find((k) => k.toLowerCase() === attribute.toLowerCase());
    const value = key === undefined ? undefined : attributes[key];
    return Array.isArray(value) ? value[0] : value;
  };
  return { dn: entry.dn, uid: first('uid'), mail: first('mail'), givenName: first('givenName'), sn: first('sn'), cn: first('cn'), attributes };
}
