// The lower-case copies a user's sign-in names are stored and compared as (User.userNameNormalized,
// User.emailNormalized): every lookup and every uniqueness check uses them.

export function normalizeUserName(userName: string): string {
  return userName.trim().toLowerCase();
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
