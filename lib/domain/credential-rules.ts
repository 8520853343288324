import { z } from 'zod';

// The rules of what people type on the hosted pages (sign-in, registration, password recovery,
// the first administrator's password), shared by the endpoints that check them and the forms that
// check them first, with the messages the forms show. Pure (zod only): the browser imports it.

export const PASSWORD_MAX_LENGTH = 1024;
export const EMAIL_MAX_LENGTH = 254;

/** A password presented or set; its minimum length is the realm's policy, checked by the domain. */
export const passwordRule = (missing = 'Enter a password.') =>
  z.string().min(1, missing).max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`);

/** A new password as the realm's policy wants it (the page reads the minimum length). */
export const newPasswordRule = (minLength: number) =>
  z.string().min(minLength, `Use at least ${minLength} characters.`).max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`);

/** An e-mail address typed by a person: surrounding spaces ignored. */
export const emailRule = z
  .string()
  .trim()
  .min(1, 'Enter your e-mail address.')
  .max(EMAIL_MAX_LENGTH, `Use at most ${EMAIL_MAX_LENGTH} characters.`)
  .pipe(z.email('Enter a valid e-mail address, like name@example.com.'));

/** Password sign-in (spec 4.1): the user name may also be the e-mail address. */
export const loginBodySchema = z.object({
  UserName: z.string().trim().min(1, 'Enter your user name or e-mail address.').max(256),
  Password: passwordRule('Enter your password.'),
});
