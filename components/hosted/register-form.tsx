'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { emailRule, newPasswordRule } from '@/lib/domain/credential-rules';
import { api, ApiError } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField, TextField } from '@/components/ui/field';
import type { FIELD_POLICIES } from '@/lib/domain/realm-settings/schema';
import type { LoginOutcome, SignInMethods } from './login-outcome';
import { LoginForm } from './login-form';
import { stepAfter } from './login-outcome';
import { safeRedirect } from './safe-redirect';
import { TokenFailure, TokenProgress, useTokenRedemption } from './token-action';

export type FieldPolicy = (typeof FIELD_POLICIES)[number];
export type RegistrationConfig = {
  fields: { Username: FieldPolicy; Firstname: FieldPolicy; Lastname: FieldPolicy };
  inviteCode: boolean;
  /** Ask for a password (password sign-in is on); its minimum length. */
  password: { minLength: number } | null;
};

type Values = { Email: string; UserName: string; Firstname: string; Lastname: string; Password: string; Confirm: string; InviteCode: string };
const FIELDS = ['Email', 'UserName', 'Firstname', 'Lastname', 'Password', 'Confirm', 'InviteCode'] as const;

function text(policy: FieldPolicy, requiredMessage: string, max: number) {
  const base = z.string().trim().max(max, `Use at most ${max} characters.`);
  return policy === 'Required' ? base.min(1, requiredMessage) : base;
}

function schemaFor(c: RegistrationConfig) {
  return z
    .object({
      Email: emailRule,
      UserName: text(c.fields.Username, 'Choose a user name.', 128),
      Firstname: text(c.fields.Firstname, 'Enter your first name.', 100),
      Lastname: text(c.fields.Lastname, 'Enter your last name.', 100),
      Password: c.password ? newPasswordRule(c.password.minLength) : z.string(),
      Confirm: z.string(),
      InviteCode: c.inviteCode ? z.string().trim().min(1, 'Enter your invite code.').max(100) : z.string(),
    })
    .refine((v) => !c.password || v.Password === v.Confirm, { path: ['Confirm'], message: 'The two passwords do not match.' });
}

/** Self-registration (spec 2.5, 4.1): the fields the realm asks for; 202 means a link was mailed. */
export function RegisterForm({ config, redirectTo }: { config: RegistrationConfig; redirectTo: string | null }) {
  const form = useForm<Values>({
    resolver: zodResolver(schemaFor(config)),
    defaultValues: { Email: '', UserName: '', Firstname: '', Lastname: '', Password: '', Confirm: '', InviteCode: '' },
  });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const register = useMutation({
    mutationFn: (v: Values) => {
      const opt = (value: string) => (value.trim() ? value.trim() : undefined);
      return api('/api/account/register', {
        method: 'POST',
        body: {
          Email: v.Email.trim(),
          UserName: config.fields.Username === 'Off' ? undefined : opt(v.UserName),
          Firstname: config.fields.Firstname === 'Off' ? undefined : opt(v.Firstname),
          Lastname: config.fields.Lastname === 'Off' ? undefined : opt(v.Lastname),
          Password: config.password ? v.Password : undefined,
          InviteCode: config.inviteCode ? opt(v.InviteCode) : undefined,
          Redirect: redirectTo ?? undefined,
        },
      });
    },
    onError: (e) => report(e, { codeFields: { 'Registration.InviteCodeRequired': 'InviteCode', 'Registration.InviteCodeInvalid': 'InviteCode' } }),
  });
  const loginHref = redirectTo ? `/login?redirect=${encodeURIComponent(redirectTo)}` : '/login';

  if (register.isSuccess) {
    return (
      <div className="stack">
        <Alert tone="success" title="Check your mail">
          <p>
            We sent a link to <strong>{register.variables.Email.trim()}</strong>. Open it to confirm the address and finish creating your account.
          </p>
        </Alert>
        <Link href={loginHref} className="btn btn-block">
          Back to sign-in
        </Link>
      </div>
    );
  }
  const errors = form.formState.errors;
  const f = config.fields;
  return (
    <form
      className="form"
      method="post"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        register.mutate(v);
      })}
    >
      <ErrorSummary summary={summary} ref={summaryRef} />
      <TextField
        label="E-mail address"
        type="email"
        registration={form.register('Email')}
        error={errors.Email?.message}
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
      />
      {f.Username !== 'Off' ? (
        <TextField
          label="User name"
          optional={f.Username === 'Optional'}
          registration={form.register('UserName')}
          error={errors.UserName?.message}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
        />
      ) : null}
      {f.Firstname !== 'Off' ? (
        <TextField
          label="First name"
          optional={f.Firstname === 'Optional'}
          registration={form.register('Firstname')}
          error={errors.Firstname?.message}
          autoComplete="given-name"
        />
      ) : null}
      {f.Lastname !== 'Off' ? (
        <TextField
          label="Last name"
          optional={f.Lastname === 'Optional'}
          registration={form.register('Lastname')}
          error={errors.Lastname?.message}
          autoComplete="family-name"
        />
      ) : null}
      {config.password ? (
        <>
          <PasswordField
            label="Password"
            hint={`At least ${config.password.minLength} characters. A long passphrase is easiest to remember.`}
            registration={form.register('Password')}
            error={errors.Password?.message}
            autoComplete="new-password"
          />
          <PasswordField label="Repeat the password" registration={form.register('Confirm')} error={errors.Confirm?.message} autoComplete="new-password" />
        </>
      ) : null}
      {config.inviteCode ? (
        <TextField
          label="Invite code"
          hint="The code you were given to join."
          registration={form.register('InviteCode')}
          error={errors.InviteCode?.message}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
      ) : null}
      <Button type="submit" variant="primary" block busy={register.isPending} busyLabel="Creating your account…">
        Create account
      </Button>
      <p className="small muted hosted-links">
        <span>
          Already have an account? <Link href={loginHref}>Go to sign-in</Link>
        </span>
      </p>
    </form>
  );
}

/**
 * /register/verify: proving the mailed link creates the account and signs the person in (a login
 * outcome); any further step (second factor, secure set-up) continues as on /login.
 */
export function RegisterVerify({ token, methods, fallback }: { token: string; methods: SignInMethods; fallback: string }) {
  const [next, setNext] = useState<{ outcome: LoginOutcome; redirectTo: string } | null>(null);
  const verify = useTokenRedemption(
    token,
    (Token) => api<LoginOutcome & { redirect?: string }>('/api/account/register/verify-email', { method: 'POST', body: { Token } }),
    (data) => {
      const redirectTo = safeRedirect(data.redirect, fallback);
      if (stepAfter(data).kind === 'done') window.location.assign(redirectTo);
      setNext({ outcome: data, redirectTo });
    },
  );
  if (next) {
    const step = stepAfter(next.outcome);
    if (step.kind === 'done') {
      return (
        <div className="stack">
          <Alert tone="success" title="Your account is ready">
            <p>You are signed in. Taking you on…</p>
          </Alert>
          <a href={next.redirectTo} className="btn btn-primary btn-block">
            Continue
          </a>
        </div>
      );
    }
    return <LoginForm redirectTo={next.redirectTo} methods={methods} initialStep={step} />;
  }
  if (verify.isError) {
    const used = verify.error instanceof ApiError && verify.error.code === 'Token.Used';
    return (
      <TokenFailure error={verify.error} retry={() => verify.mutate()} busy={verify.isPending}>
        {used ? <p className="muted">If you already confirmed it, your account exists: sign in.</p> : null}
        <Link href="/login" className="btn btn-ghost btn-block">
          Go to sign-in
        </Link>
      </TokenFailure>
    );
  }
  return (
    <div className="stack">
      <TokenProgress label="Creating your account…" />
      <Button variant="secondary" block busy={verify.isPending} busyLabel="Confirming…" onClick={() => verify.mutate()}>
        Confirm and create my account
      </Button>
    </div>
  );
}
