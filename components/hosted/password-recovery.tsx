'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { newPasswordRule } from '@/lib/domain/credential-rules';
import { forgotPasswordBodySchema } from '@/lib/domain/passwords/schemas';
import { api, ApiError } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField, TextField } from '@/components/ui/field';
import { safeRedirect } from './safe-redirect';

function loginHref(redirectTo: string | null): string {
  return redirectTo ? `/login?redirect=${encodeURIComponent(redirectTo)}` : '/login';
}

const forgotSchema = forgotPasswordBodySchema.pick({ Email: true });
type ForgotValues = z.infer<typeof forgotSchema>;

/** Asks for a reset link (spec 4.1); the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm({ redirectTo }: { redirectTo: string | null }) {
  const form = useForm<ForgotValues>({ resolver: zodResolver(forgotSchema), defaultValues: { Email: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, ['Email'] as const);
  const request = useMutation({
    mutationFn: (v: ForgotValues) =>
      api('/api/account/forgot-password', { method: 'POST', body: { Email: v.Email.trim(), ...(redirectTo ? { Redirect: redirectTo } : {}) } }),
    onError: (e) => report(e),
  });
  if (request.isSuccess) {
    return (
      <div className="stack">
        <Alert tone="success" title="Check your mail">
          <p>
            If <strong>{request.variables.Email.trim()}</strong> has an account here, we have sent a link to choose a new password. It works once, for a limited
            time.
          </p>
        </Alert>
        <Link href={loginHref(redirectTo)} className="btn btn-block">
          Back to sign-in
        </Link>
      </div>
    );
  }
  return (
    <form
      className="form"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        request.mutate(v);
      })}
    >
      <ErrorSummary summary={summary} ref={summaryRef} />
      <TextField
        label="E-mail address"
        type="email"
        registration={form.register('Email')}
        error={form.formState.errors.Email?.message}
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
      />
      <Button type="submit" variant="primary" block busy={request.isPending} busyLabel="Sending…">
        Send me a reset link
      </Button>
      <Link href={loginHref(redirectTo)} className="btn btn-ghost btn-block">
        Back to sign-in
      </Link>
    </form>
  );
}

type ResetValues = { NewPassword: string; Confirm: string };
const RESET_FIELDS = ['NewPassword', 'Confirm'] as const;

/**
 * The mailed link's page: the new password twice. The address is the one the link was mailed to
 * (the page read it from the token), sent along as the API asks (CONTRACT.md) and offered to
 * password managers, never typed again.
 */
export function ResetPasswordForm({ token, email, minLength }: { token: string; email: string; minLength: number }) {
  const schema = z
    .object({
      NewPassword: newPasswordRule(minLength),
      Confirm: z.string().min(1, 'Enter the new password again.'),
    })
    .refine((v) => v.NewPassword === v.Confirm, { path: ['Confirm'], message: 'The two passwords do not match.' });
  const form = useForm<ResetValues>({ resolver: zodResolver(schema), defaultValues: { NewPassword: '', Confirm: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, RESET_FIELDS);
  const reset = useMutation({
    mutationFn: (v: ResetValues) =>
      api<{ Redirect?: string }>('/api/account/reset-password', { method: 'POST', body: { Email: email, Token: token, NewPassword: v.NewPassword } }),
    // The password rules answer `errors.Password`; on this form the field is NewPassword.
    onError: (e) =>
      report(e instanceof ApiError && e.problem.errors?.Password ? new ApiError({ ...e.problem, errors: { NewPassword: e.problem.errors.Password } }) : e),
  });
  if (reset.isSuccess) {
    const next = reset.data.Redirect ? safeRedirect(reset.data.Redirect, '') : '';
    return (
      <div className="stack">
        <Alert tone="success" title="Your password has been changed">
          <p>Sign in with your new password. For your safety, every other session of your account has been signed out.</p>
        </Alert>
        <Link href={loginHref(next || null)} className="btn btn-primary btn-block" autoFocus>
          Continue to sign-in
        </Link>
      </div>
    );
  }
  const tokenDead = reset.error instanceof ApiError && reset.error.code?.startsWith('Token.');
  const errors = form.formState.errors;
  return (
    <form
      className="form"
      method="post"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        reset.mutate(v);
      })}
    >
      <ErrorSummary summary={summary} ref={summaryRef} />
      {tokenDead ? (
        <p className="small">
          <Link href="/forgot-password">Ask for a new reset link</Link>
        </p>
      ) : null}
      {/* For password managers: which account the new password belongs to. */}
      <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
      <PasswordField
        label="New password"
        hint={`At least ${minLength} characters. A long passphrase is easiest to remember.`}
        registration={form.register('NewPassword')}
        error={errors.NewPassword?.message}
        autoComplete="new-password"
        autoFocus
      />
      <PasswordField label="Repeat the new password" registration={form.register('Confirm')} error={errors.Confirm?.message} autoComplete="new-password" />
      <Button type="submit" variant="primary" block busy={reset.isPending} busyLabel="Saving…">
        Set new password
      </Button>
    </form>
  );
}
