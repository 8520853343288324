import { z } from 'zod';

// Plain sentences for every rule a schema states without a message of its own. zod's default English
// speaks to developers ("Too big: expected string to have <=100 characters", "Invalid input:
// expected string, received undefined"); people read these messages next to form fields and in the
// `errors` of a Validation.Failed problem, so they say what to do instead. A message written in a
// schema still wins: zod asks this map only after the check's and the schema's own messages.
//
// zod keeps its configuration on `globalThis`, so one installation serves every bundle of a process:
// the route wrapper installs it on the server (lib/http/parse-input.ts) and the query provider in the
// browser (components/data/query-provider.tsx). This module imports only zod: the browser may load it.

type RawIssue = z.core.$ZodRawIssue;

function plural(n: number | bigint, one: string, many: string): string {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

function quoted(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v || '(empty)' : String(v))).join(', ');
}

function asDate(value: number | bigint): string {
  const d = new Date(Number(value));
  return Number.isNaN(d.getTime()) ? String(value) : d.toISOString().slice(0, 10);
}

function typeMessage(expected: string, input: unknown): string {
  // A missing value is the common case: a field left out of a body or a form.
  if (input === undefined || input === null) return 'This field is required.';
  switch (expected) {
    case 'string':
      return 'Enter text.';
    case 'number':
    case 'nan':
      return 'Enter a number.';
    case 'int':
    case 'bigint':
      return 'Enter a whole number.';
    case 'boolean':
      return 'Use true or false.';
    case 'date':
      return 'Enter a valid date.';
    case 'array':
    case 'tuple':
    case 'set':
      return 'This must be a list.';
    case 'object':
    case 'record':
    case 'map':
      return 'This must be a group of fields (an object).';
    case 'file':
      return 'Choose a file.';
    case 'undefined':
    case 'never':
    case 'void':
      return 'Leave this field out.';
    case 'null':
      return 'This must be empty.';
    default:
      return 'This value is not valid.';
  }
}

function sizeMessage(issue: { origin: string; exact?: boolean; inclusive?: boolean }, limit: number | bigint, side: 'max' | 'min'): string {
  const { origin, exact } = issue;
  const inclusive = issue.inclusive !== false;
  const units: Record<string, [string, string]> = {
    string: ['character', 'characters'],
    array: ['item', 'items'],
    set: ['item', 'items'],
    map: ['entry', 'entries'],
    file: ['byte', 'bytes'],
  };
  const unit = units[origin];
  if (unit) {
    if (exact) return `Use exactly ${plural(limit, ...unit)}.`;
    if (side === 'min' && Number(limit) === 1 && origin === 'string') return 'This field is required.';
    if (side === 'min' && Number(limit) === 1) return 'Add at least one.';
    return side === 'max' ? `Use at most ${plural(limit, ...unit)}.` : `Use at least ${plural(limit, ...unit)}.`;
  }
  if (origin === 'date') {
    const at = asDate(limit);
    return side === 'max' ? `Choose a date ${inclusive ? 'on or before' : 'before'} ${at}.` : `Choose a date ${inclusive ? 'on or after' : 'after'} ${at}.`;
  }
  if (exact) return `Enter ${limit}.`;
  if (side === 'max') return inclusive ? `Enter a number no greater than ${limit}.` : `Enter a number less than ${limit}.`;
  return inclusive ? `Enter a number of at least ${limit}.` : `Enter a number greater than ${limit}.`;
}

const FORMATS: Record<string, string> = {
  email: 'Enter a valid e-mail address.',
  url: 'Enter a valid web address (URL).',
  httpUrl: 'Enter a valid web address (URL).',
  uuid: 'Enter a valid ID.',
  uuidv4: 'Enter a valid ID.',
  uuidv6: 'Enter a valid ID.',
  uuidv7: 'Enter a valid ID.',
  guid: 'Enter a valid ID.',
  cuid: 'Enter a valid ID.',
  cuid2: 'Enter a valid ID.',
  ulid: 'Enter a valid ID.',
  xid: 'Enter a valid ID.',
  ksuid: 'Enter a valid ID.',
  nanoid: 'Enter a valid ID.',
  datetime: 'Enter a valid date and time.',
  date: 'Enter a valid date.',
  time: 'Enter a valid time.',
  duration: 'Enter a valid duration.',
  ipv4: 'Enter a valid IP address.',
  ipv6: 'Enter a valid IP address.',
  cidrv4: 'Enter a valid IP address range.',
  cidrv6: 'Enter a valid IP address range.',
  mac: 'Enter a valid MAC address.',
  base64: 'Enter valid Base64 data.',
  base64url: 'Enter valid Base64 data.',
  jwt: 'Enter a valid token.',
  e164: 'Enter a valid phone number.',
  emoji: 'Enter an emoji.',
  lowercase: 'Use lower-case letters only.',
  uppercase: 'Use upper-case letters only.',
  json_string: 'Enter valid JSON.',
  hostname: 'Enter a valid host name.',
  hex: 'Enter hexadecimal digits only.',
};

function formatMessage(issue: RawIssue & { format?: string }): string {
  const i = issue as { format?: string; prefix?: string; suffix?: string; includes?: string };
  if (i.format === 'starts_with') return `Start with “${i.prefix}”.`;
  if (i.format === 'ends_with') return `End with “${i.suffix}”.`;
  if (i.format === 'includes') return `Include “${i.includes}”.`;
  return FORMATS[i.format ?? ''] ?? 'This value is not in the right format.';
}

function unionMessage(issue: { errors?: { code?: string; message: string }[][]; options?: readonly unknown[]; inclusive?: boolean }): string {
  if (issue.inclusive === false) return 'This value matches more than one choice.';
  if (issue.options?.length) return `Choose one of: ${quoted(issue.options)}.`;
  // The branch that got furthest (the right type, a failed rule) says best what is wrong:
  // `"a b"` against "a user name, or empty" is about the user name.
  const further = issue.errors?.find((branch) => branch.length > 0 && !branch.every((i) => i.code === 'invalid_type' || i.code === 'invalid_value'));
  if (further) return further[0].message;
  const typed = issue.errors?.find((branch) => branch.length > 0)?.[0];
  return typed?.message ?? 'This value is not valid.';
}

/** The plain sentence for a zod issue that carries no message of its own. */
export function friendlyIssueMessage(issue: RawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return typeMessage(String(issue.expected), issue.input);
    case 'too_big':
      return sizeMessage(issue, issue.maximum, 'max');
    case 'too_small':
      return sizeMessage(issue, issue.minimum, 'min');
    case 'invalid_format':
      return formatMessage(issue);
    case 'not_multiple_of':
      return `Enter a multiple of ${issue.divisor}.`;
    case 'unrecognized_keys':
      return issue.keys.length === 1
        ? `Remove the unknown field “${issue.keys[0]}”.`
        : `Remove the unknown fields ${issue.keys.map((k) => `“${k}”`).join(', ')}.`;
    case 'invalid_key':
      return 'A key here is not allowed.';
    case 'invalid_element':
      return 'A value in this list is not valid.';
    case 'invalid_union':
      return unionMessage(issue);
    case 'invalid_value': {
      if (issue.input === undefined) return 'This field is required.';
      if (issue.values.length === 1) return typeof issue.values[0] === 'boolean' ? `This must be ${issue.values[0]}.` : `Use ${quoted(issue.values)}.`;
      return issue.values.length <= 12 ? `Choose one of: ${quoted(issue.values)}.` : 'Choose one of the offered values.';
    }
    default:
      return 'This value is not valid.';
  }
}

/** Makes zod use the plain sentences (idempotent; zod's configuration is process- or page-wide). */
export function installFriendlyValidationMessages(): void {
  if (z.config().customError !== friendlyIssueMessage) z.config({ customError: friendlyIssueMessage });
}
