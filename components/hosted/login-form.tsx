'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, ApiError } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField, TextField } from '@/components/ui/field';
import { stepAfter, type LoginOutcome, type LoginStep } from './login-outcome';
import { TwoFactorStep } from './two-factor-step';

const schema = z.object({
  UserName: z.string().trim().min(1, 'Enter your user name or e-mail address.'),
  Password: z.string().min(1, 'Enter your password.'),
});
type Values = z.infer<typeof schema>;
const FIELDS = ['UserName', 'Password'] as const;

/** Sign-in: the password step, then whatever the outcome asks for, then on to `redirectTo`. */
export function LoginForm({ redirectTo }: { redirectTo: string }) {
  const [step, setStep] = useState<LoginStep>({ kind: 'password' });
  const finish = () => {
    setStep({ kind: 'done' });
    // A full navigation, so the server renders the next page with the new session cookie.
    window.location.assign(redirectTo);
  };
  const advance = (outcome: LoginOutcome) => {
    const next = stepAfter(outcome);
    if (next.kind === 'done') finish();
    else setStep(next);
  };

  if (step.kind === 'two-factor') return <TwoFactorStep methods={step.methods} onOutcome={advance} onCancel={() => setStep({ kind: 'password' })} />;
  if (step.kind === 'secure-setup-blocked') {
    return (
      <Alert tone="warning" title="Two-factor set-up is required">
        <p>The grace period for setting up a second factor has ended. Contact your administrator to regain access.</p>
      </Alert>
    );
  }
  return <PasswordStep onOutcome={advance} done={step.kind === 'done'} />;
}

function PasswordStep({ onOutcome, done }: { onOutcome: (o: LoginOutcome) => void; done: boolean }) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { UserName: '', Password: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const login = useMutation({
    mutationFn: (values: Values) => api<LoginOutcome>('/api/account/login', { method: 'POST', body: values }),
    onSuccess: onOutcome,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) {
        // The alert is announced (role=alert); focus goes where the person retypes.
        form.resetField('Password');
        report(error, { focusSummary: false });
        form.setFocus('Password');
        return;
      }
      report(error);
    },
  });
  const busy = login.isPending || done;
  const errors = form.formState.errors;

  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((v) => { clear(); login.mutate(v); })} aria-describedby={summary ? 'login-error' : undefined}>
      <div id="login-error">
        <ErrorSummary summary={summary} ref={summaryRef} />
      </div>
      <TextField label="User name or e-mail" registration={form.register('UserName')} error={errors.UserName?.message} autoComplete="username" autoCapitalize="none" spellCheck={false} autoFocus />
      <PasswordField label="Password" registration={form.register('Password')} error={errors.Password?.message} autoComplete="current-password" />
      <Button type="submit" variant="primary" block busy={busy} busyLabel={done ? 'Signing in…' : 'Checking…'}>
        Sign in
      </Button>
    </form>
  );
}
