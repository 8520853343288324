import { z } from 'zod';
import { runUserUpdateScript, type ScriptUser } from '../external-identity/user-update-script';
import type { UpstreamIdentity } from '../external-identity/upstream-identity';
import type { ProviderRow } from '../login-providers/repo';
import type { UserRecord } from '../users/repo';

// The provider's UserUpdateScript (CONTRACT.md "External identity"), run in the sandbox at every
// external sign-in; what it returns must also fit the user rules of the admin API, so a script
// cannot set what an administrator could not.
const changesSchema = z.object({
  UserName: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .regex(/^[^\s\p{C}]+$/u, 'UserName may have no spaces or control characters')
    .optional(),
  Email: z.email().max(254).optional(),
  Firstname: z.string().max(100).nullable().optional(),
  Lastname: z.string().max(100).nullable().optional(),
  Acronym: z.string().max(16).nullable().optional(),
});
export type UserChanges = z.infer<typeof changesSchema>;

export type ScriptedChanges = { kind: 'update'; changes: UserChanges } | { kind: 'deny' | 'failed'; reason: string };

function scriptUser(user: UserRecord | null): ScriptUser {
  return user ? { UserName: user.userName, Email: user.email, Firstname: user.firstname, Lastname: user.lastname, Acronym: user.acronym } : null;
}

export async function scriptedChanges(provider: ProviderRow, identity: UpstreamIdentity, user: UserRecord | null): Promise<ScriptedChanges> {
  const script = provider.config.UserUpdateScript;
  if (!script?.trim()) return { kind: 'update', changes: {} };
  const result = await runUserUpdateScript(script, identity.claims, scriptUser(user));
  if (result.kind !== 'update') return result;
  const checked = changesSchema.safeParse(result.changes);
  if (!checked.success)
    return { kind: 'failed', reason: `the script returned ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  return { kind: 'update', changes: checked.data };
}
