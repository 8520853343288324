// Building the user search filter from what a person typed at sign-in. The name is a value inside a
// filter, so RFC 4515 section 3 applies: `*`, `(`, `)`, `\` and NUL must be written as `\2a`, `\28`,
// `\29`, `\5c`, `\00`, or a name like `*` or `x)(uid=*` would match other people's entries.
// Non-ASCII characters stay as they are: RFC 4515 allows UTF-8 in values, and ldapts decodes each
// `\xx` escape to one character rather than to a UTF-8 byte, so escaping them would corrupt them.

export const DEFAULT_USER_SEARCH_FILTER = '(uid={username})';

const FILTER_METACHARACTERS = /[\\*()\0]/g;

export function escapeLdapFilterValue(value: string): string {
  return value.replace(FILTER_METACHARACTERS, (c) => '\\' + c.charCodeAt(0).toString(16).padStart(2, '0'));
}

/** The configured filter (or `(uid={username})`) with every `{username}` replaced by the escaped name. */
export function userSearchFilter(template: string | null | undefined, username: string): string {
  // split/join, not String.replace: a replacement string would give `$&` and `$'` in a name a meaning.
  return (template || DEFAULT_USER_SEARCH_FILTER).split('{username}').join(escapeLdapFilterValue(username));
}
