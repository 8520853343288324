import { runUserUpdateScript, type ScriptChanges, type ScriptOutcome, type ScriptUser } from '../external-identity/user-update-script';
import type { UpstreamIdentity } from '../external-identity/upstream-identity';
import type { ProviderRow } from '../login-providers/repo';
import type { UserRecord } from '../users/repo';

// The provider's UserUpdateScript (CONTRACT.md "External identity"), run in the sandbox at every
// external sign-in. What it returns is already checked against the user API's own field rules
// (external-identity/user-update-script.ts), so a script cannot set what an administrator could not.
export type UserChanges = ScriptChanges;

function scriptUser(user: UserRecord | null): ScriptUser {
  return user ? { UserName: user.userName, Email: user.email, Firstname: user.firstname, Lastname: user.lastname, Acronym: user.acronym } : null;
}

export async function scriptedChanges(provider: ProviderRow, identity: UpstreamIdentity, user: UserRecord | null): Promise<ScriptOutcome> {
  const script = provider.config.UserUpdateScript;
  if (!script?.trim()) return { kind: 'update', changes: {} };
  return runUserUpdateScript(script, identity.claims, scriptUser(user));
}
