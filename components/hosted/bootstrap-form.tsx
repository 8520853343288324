'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { newPasswordRule } from '@/lib/domain/credential-rules';
import { api, ApiError } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/field';
import { DeadInvite } from './dead-invite';

// The minimum length is the realm's password policy, read by the page: the hint and the check say
// what the server enforces.
const schemaFor = (minLength: number) =>
  z
    .object({
      Password: newPasswordRule(minLength),
      Confirm: z.string().min(1, 'Enter the password again.'),
    })
    .refine((v) => v.Password === v.Confirm, { path: ['Confirm'], message: 'The two passwords do not match.' });
type Values = z.infer<ReturnType<typeof schemaFor>>;
const FIELDS = ['Password', 'Confirm'] as const;

/** The first administrator chooses a password with the invite token (spec 3.3), then lands in the console. */
export function BootstrapForm({ token, minLength }: { token: string; minLength: number }) {
  const schema = useMemo(() => schemaFor(minLength), [minLength]);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { Password: '', Confirm: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [dead, setDead] = useState<'used' | 'invalid' | null>(null);
  const redeem = useMutation({
    mutationFn: (v: Values) => api('/api/account/bootstrap-admin', { method: 'POST', body: { Token: token, Password: v.Password } }),
    onSuccess: () => window.location.assign('/console'),
    onError: (e) => {
      if (e instanceof ApiError && e.code === 'BootstrapInvite.TokenUsed') return setDead('used');
      if (e instanceof ApiError && e.code === 'BootstrapInvite.TokenInvalid') return setDead('invalid');
      report(e);
    },
  });

  if (dead) return <DeadInvite reason={dead} />;

  const errors = form.formState.errors;
  const done = redeem.isSuccess;
  return (
    <form
      className="form"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        redeem.mutate(v);
      })}
    >
      <ErrorSummary summary={summary} ref={summaryRef} />
      <PasswordField
        label="New password"
        hint={`At least ${minLength} characters. A long passphrase is easiest to remember.`}
        registration={form.register('Password')}
        error={errors.Password?.message}
        autoComplete="new-password"
        autoFocus
      />
      <PasswordField label="Repeat the password" registration={form.register('Confirm')} error={errors.Confirm?.message} autoComplete="new-password" />
      <Button type="submit" variant="primary" block busy={redeem.isPending || done} busyLabel={done ? 'Opening the console…' : 'Saving…'}>
        Set password and continue
      </Button>
    </form>
  );
}
