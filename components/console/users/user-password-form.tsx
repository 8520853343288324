'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/field';
import { passwordBodySchema } from '@/lib/domain/users/schemas';
import { keys } from '../directory-types';

// The minimum length is the realm's password policy (passed down by the page).
const schemaFor = (minLength: number) =>
  z
    .object({ Password: passwordBodySchema.shape.Password.min(minLength, `Use at least ${minLength} characters.`), Confirm: z.string() })
    .refine((v) => v.Password === v.Confirm, { path: ['Confirm'], message: 'The two passwords do not match.' });
type Values = z.infer<ReturnType<typeof schemaFor>>;
const FIELDS = ['Password', 'Confirm'] as const;

/** PUT /api/user/{id}/password: sets a password and ends the user's sessions. */
export function UserPasswordForm({ userId, hasPassword, minLength }: { userId: string; hasPassword: boolean; minLength: number }) {
  const schema = useMemo(() => schemaFor(minLength), [minLength]);
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { Password: '', Confirm: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const set = useMutation({
    mutationFn: (v: Values) => api(`/api/user/${encodeURIComponent(userId)}/password`, { method: 'PUT', body: { Password: v.Password } }),
    onSuccess: () => {
      form.reset();
      setDone(true);
      void queryClient.invalidateQueries({ queryKey: keys.user(userId) });
    },
    onError: (e) => report(e, { codeFields: { 'User.PasswordTooWeak': 'Password' } }),
  });
  const errors = form.formState.errors;
  return (
    <form
      className="card"
      noValidate
      aria-labelledby="password-heading"
      onSubmit={form.handleSubmit((v) => {
        clear();
        setDone(false);
        set.mutate(v);
      })}
    >
      <div className="card-header">
        <h2 id="password-heading">{hasPassword ? 'Reset password' : 'Set a password'}</h2>
      </div>
      <div className="card-body form">
        <p className="muted small">The user is signed out everywhere when the password changes.</p>
        {done ? <Alert tone="success" title="Password set. The user’s sessions were ended." /> : null}
        <ErrorSummary summary={summary} ref={summaryRef} />
        <PasswordField
          label="New password"
          hint={`At least ${minLength} characters.`}
          registration={form.register('Password')}
          error={errors.Password?.message}
          autoComplete="new-password"
        />
        <PasswordField label="Repeat the new password" registration={form.register('Confirm')} error={errors.Confirm?.message} autoComplete="new-password" />
        <div className="form-actions">
          <Button type="submit" busy={set.isPending} busyLabel="Saving…">
            Set password
          </Button>
        </div>
      </div>
    </form>
  );
}
