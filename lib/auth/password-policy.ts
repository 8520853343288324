import { dictionary } from '@zxcvbn-ts/language-common';

// The password policy (issue 3 item 2), following NIST SP 800-63B: length over composition rules,
// no forced character classes, and refusal of passwords attackers try first. The list of common
// passwords is zxcvbn-ts's maintained dictionary (about 49,000 entries), bundled with the package.
export type PasswordPolicy = { MinLength: number; RejectCommon: boolean; RejectContextual: boolean };
export type PasswordContext = { userName?: string | null; email?: string | null; realmWords?: string[] };

const PASSWORD_MAX_LENGTH = 256;

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].map((p: string) => p.toLowerCase()));
  return common;
}

/** A common password, also when dressed up with trailing digits or symbols ("Password2024!"). */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const list = commonPasswords();
  if (list.has(lower)) return true;
  const stem = lower.replace(/[\d\W_]+$/u, '');
  return stem.length >= 4 && stem !== lower && list.has(stem);
}

function contextualWords(ctx: PasswordContext): string[] {
  const words = [ctx.userName, ctx.email?.split('@')[0], ...(ctx.realmWords ?? [])];
  return words.map((w) => (w ?? '').trim().toLowerCase()).filter((w) => w.length >= 4);
}

/** Problems with a password under a policy, as messages for the `Password` field; [] when fine. */
export function passwordPolicyProblems(password: string, policy: PasswordPolicy, ctx: PasswordContext = {}): string[] {
  const problems: string[] = [];
  const length = [...password].length;
  if (length < policy.MinLength) problems.push(`Use at least ${policy.MinLength} characters.`);
  if (length > PASSWORD_MAX_LENGTH) problems.push(`Use at most ${PASSWORD_MAX_LENGTH} characters.`);
  if (/^(.)\1+$/u.test(password)) problems.push('Do not repeat a single character.');
  if (policy.RejectCommon && isCommonPassword(password)) problems.push('This password is too common. Choose one that is harder to guess.');
  if (policy.RejectContextual) {
    const lower = password.toLowerCase();
    if (contextualWords(ctx).some((w) => lower.includes(w)))
      problems.push('Do not use your user name, e-mail address or the name of this site in your password.');
  }
  return problems;
}
