'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import type { LoginOutcome } from './login-outcome';

const schema = z.object({ Code: z.string().trim().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.') });
type Values = z.infer<typeof schema>;
const FIELDS = ['Code'] as const;

/** Second sign-in step (spec 4.3, 5.5): the code from the authenticator app. */
export function TwoFactorStep({ methods, onOutcome, onCancel }: { methods: string[]; onOutcome: (o: LoginOutcome) => void; onCancel: () => void }) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { Code: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const verify = useMutation({
    mutationFn: (v: Values) => api<LoginOutcome>('/api/account/mfa/login', { method: 'POST', body: v }),
    onSuccess: onOutcome,
    onError: (e) => report(e),
  });
  if (!methods.includes('totp')) {
    // Other second factors (e-mail code, passkey) get their own steps with the sign-in methods work.
    return (
      <div className="stack">
        <Alert tone="warning" title="A second step is needed">
          <p>Your account asks for a second factor this page cannot offer yet ({methods.join(', ')}).</p>
        </Alert>
        <Button variant="ghost" block onClick={onCancel}>
          Back to sign-in
        </Button>
      </div>
    );
  }
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((v) => { clear(); verify.mutate(v); })}>
      <p className="muted">Enter the 6-digit code from your authenticator app.</p>
      <ErrorSummary summary={summary} ref={summaryRef} />
      <TextField label="Verification code" registration={form.register('Code')} error={form.formState.errors.Code?.message} inputMode="numeric" autoComplete="one-time-code" autoFocus />
      <Button type="submit" variant="primary" block busy={verify.isPending} busyLabel="Verifying…">
        Verify
      </Button>
      <Button variant="ghost" block onClick={onCancel}>
        Back to sign-in
      </Button>
    </form>
  );
}
