// How a person is named in lists (users, a group's members, principal lookups): a pure helper
// shared by concepts that must not depend on each other.

/** "Ada Lovelace", or the user name when no name is known. */
export function displayNameOf(u: { userName: string; firstname: string | null; lastname: string | null }): string {
  const full = [u.firstname, u.lastname].filter((p): p is string => Boolean(p && p.trim())).join(' ');
  return full || u.userName;
}
