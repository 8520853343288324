import { z } from 'zod';
import { userFieldRules } from '../users/schemas';
import { runInSandbox, SCRIPT_MEMORY_LIMIT_BYTES, SCRIPT_RESULT_MAX_LENGTH, SCRIPT_TIME_LIMIT_MS } from './script-sandbox';
import type { GuestFailure } from './script-sandbox';

// A login provider's UserUpdateScript (CONTRACT.md "External identity"): the body of a JavaScript
// function `(claims, user)` run at every external sign-in, in the sandbox of script-sandbox.ts. It
// returns the fields to update, `{ Deny: "<reason>" }`, or nothing. Whatever else happens (a throw, a
// loop, too much memory, a result of the wrong shape) refuses the sign-in with a reason for the
// security log: the reasons name what went wrong and quote the script's own error message, never the
// claims.

/** null: the person is about to be created just in time. */
export type ScriptUser = { UserName: string; Email: string | null; Firstname: string | null; Lastname: string | null; Acronym: string | null } | null;
export type ScriptChanges = Partial<{ UserName: string; Email: string; Firstname: string | null; Lastname: string | null; Acronym: string | null }>;
export type ScriptOutcome = { kind: 'update'; changes: ScriptChanges } | { kind: 'deny'; reason: string } | { kind: 'failed'; reason: string };

/** The longest script body accepted (the admin API's limit for `UserUpdateScript`). */
export const USER_UPDATE_SCRIPT_MAX_LENGTH = 64 * 1024;
/** The claims are handed over as JSON; an upstream sending more than this is refused. */
const CLAIMS_MAX_LENGTH = 1024 * 1024;
const QUOTED_MESSAGE_MAX_LENGTH = 300;
const DENY_REASON_MAX_LENGTH = 500;

// The same rules as the user API (lib/domain/users/schemas.ts), so a change the script may make is
// one the user record accepts; strict, so a field the script may not set (IsAdmin, __proto__) refuses.
const changesSchema = z.strictObject({
  UserName: userFieldRules.userName.optional(),
  Email: userFieldRules.email.optional(),
  Firstname: userFieldRules.personName.nullable().optional(),
  Lastname: userFieldRules.personName.nullable().optional(),
  Acronym: userFieldRules.acronym.nullable().optional(),
});
const denySchema = z.strictObject({ Deny: z.string().trim().min(1, 'give a reason').max(DENY_REASON_MAX_LENGTH) });

const envelopeSchema = z.union([
  z.strictObject({ none: z.literal(true) }),
  // Not z.record: copying the result into a new object would turn an own `__proto__` key into a prototype.
  z.strictObject({ result: z.unknown() }),
  z.strictObject({ refused: z.string() }),
  z.strictObject({ tooLarge: z.number() }),
]);

const EXPECTED = 'an object with UserName, Email, Firstname, Lastname or Acronym, { Deny: "<reason>" }, or nothing';

/** Runs the body of `function (claims, user) { ... }` in a fresh QuickJS context. */
export async function runUserUpdateScript(script: string, claims: Record<string, unknown>, user: ScriptUser): Promise<ScriptOutcome> {
  if (script.length > USER_UPDATE_SCRIPT_MAX_LENGTH) return failed(`the script is longer than ${USER_UPDATE_SCRIPT_MAX_LENGTH} characters`);
  let claimsJson: string;
  try {
    claimsJson = JSON.stringify(claims);
  } catch {
    return failed('the claims could not be handed to the script (they are not JSON)');
  }
  if (claimsJson.length > CLAIMS_MAX_LENGTH) return failed(`the claims are larger than ${CLAIMS_MAX_LENGTH / 1024} KiB`);

  const run = await runInSandbox(script, { claimsJson, userJson: JSON.stringify(user) });
  if (run.kind === 'failed') return failed(run.phase === 'compile' ? compileReason(run.failure) : runReason(run.failure));
  if (run.kind !== 'ok') return failed('the script did not run');
  return readEnvelope(run.envelope);
}

/** For the admin API: undefined when the body compiles, else a short reason (syntax error message with line). */
export async function userUpdateScriptProblem(script: string): Promise<string | undefined> {
  if (script.length > USER_UPDATE_SCRIPT_MAX_LENGTH) return `the script is longer than ${USER_UPDATE_SCRIPT_MAX_LENGTH} characters`;
  const run = await runInSandbox(script);
  if (run.kind !== 'failed') return undefined;
  return run.failure.kind === 'threw' ? quote(run.failure.message) : limitReason(run.failure);
}

function readEnvelope(json: string): ScriptOutcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return failed('the sandbox answered something unreadable');
  }
  const envelope = envelopeSchema.safeParse(parsed);
  if (!envelope.success) return failed('the sandbox answered something unreadable');
  const value = envelope.data;
  if ('none' in value) return { kind: 'update', changes: {} };
  if ('refused' in value) return failed(`the script returned ${value.refused}; expected ${EXPECTED}`);
  if ('tooLarge' in value) return failed(`the script's result is larger than ${SCRIPT_RESULT_MAX_LENGTH / 1024} KiB`);

  const result = value.result;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return failed(`the script returned something other than ${EXPECTED}`);
  if (Object.hasOwn(result, 'Deny')) {
    const deny = denySchema.safeParse(result);
    return deny.success ? { kind: 'deny', reason: deny.data.Deny } : failed(`the script's Deny result is invalid: ${issues(deny.error)}`);
  }
  const changes = changesSchema.safeParse(result);
  return changes.success ? { kind: 'update', changes: changes.data } : failed(`the script's result is invalid: ${issues(changes.error)}`);
}

/** zod's messages name the field and the rule, never the value. */
function issues(error: z.ZodError): string {
  const text = error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
  return trim(text, QUOTED_MESSAGE_MAX_LENGTH);
}

function compileReason(failure: GuestFailure): string {
  return failure.kind === 'threw' ? `the script does not compile: ${quote(failure.message)}` : limitReason(failure);
}

function runReason(failure: GuestFailure): string {
  return failure.kind === 'threw' ? `the script threw: ${quote(failure.message)}` : limitReason(failure);
}

function limitReason(failure: Exclude<GuestFailure, { kind: 'threw' }>): string {
  switch (failure.kind) {
    case 'timeout':
      return `the script ran longer than ${SCRIPT_TIME_LIMIT_MS} ms`;
    case 'memory':
      return `the script used more than ${SCRIPT_MEMORY_LIMIT_BYTES / 1024 / 1024} MiB of memory`;
    case 'stack':
      return 'the script nested or recursed too deeply (stack overflow)';
    case 'sandbox':
      return `the script sandbox failed (${failure.name})`;
  }
}

function quote(message: string): string {
  return trim(message, QUOTED_MESSAGE_MAX_LENGTH);
}

function trim(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function failed(reason: string): ScriptOutcome {
  return { kind: 'failed', reason };
}
