// Pure rules of self-registration (spec 2.5, 4.1): the RegistrationFields policy and the
// continuation a registration carries forward.
export type FieldPolicy = 'Off' | 'Optional' | 'Required';
export type RegistrationFieldsPolicy = { Username: FieldPolicy; Firstname: FieldPolicy; Lastname: FieldPolicy };
export type RegistrationFieldValues = { UserName?: string | null; Firstname?: string | null; Lastname?: string | null };

const FIELDS = [
  ['UserName', 'Username', 'user name'],
  ['Firstname', 'Firstname', 'first name'],
  ['Lastname', 'Lastname', 'last name'],
] as const;

/** A blank value counts as not sent (forms send "" for fields they hide). */
export function sent(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Problems of the submitted fields against the policy, keyed by request field: a Required field
 * that is missing, an Off field that was sent. Empty when the fields are acceptable.
 */
export function registrationFieldProblems(policy: RegistrationFieldsPolicy, values: RegistrationFieldValues): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, key, label] of FIELDS) {
    const v = values[field];
    if (policy[key] === 'Required' && !sent(v)) errors[field] = [`A ${label} is required.`];
    if (policy[key] === 'Off' && sent(v)) errors[field] = [`This realm does not take a ${label} at registration.`];
  }
  return errors;
}

/**
 * A continuation (`redirect`) is carried forward only when it is a path on this host: it starts
 * with one `/`, is not protocol-relative (`//`, `/\`), and has no control characters.
 */
export function isSafeContinuation(value: string): boolean {
  if (value.length > 2000 || !value.startsWith('/')) return false;
  if (value.startsWith('//') || value.startsWith('/\\')) return false;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  try {
    const u = new URL(value, 'http://x.invalid');
    return u.origin === 'http://x.invalid';
  } catch {
    return false;
  }
}
