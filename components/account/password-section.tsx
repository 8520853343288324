'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/field';
import { changePasswordBodySchema } from '@/lib/domain/passwords/schemas';
import { AccountSection } from './section';

const schema = changePasswordBodySchema
  .extend({ Repeat: z.string() })
  .refine((v) => v.NewPassword === v.Repeat, { path: ['Repeat'], message: 'The passwords do not match.' });
type Values = z.infer<typeof schema>;
const FIELDS = ['CurrentPassword', 'NewPassword', 'Repeat'] as const;

/** Change password (spec 4.2): the realm's password policy is checked by the server. */
export function PasswordSection({ minLength }: { minLength?: number }) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { CurrentPassword: '', NewPassword: '', Repeat: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [done, setDone] = useState(false);
  const change = useMutation({
    mutationFn: (v: Values) =>
      api('/api/account/change-password', { method: 'POST', body: { CurrentPassword: v.CurrentPassword, NewPassword: v.NewPassword } }),
    onSuccess: () => {
      form.reset();
      setDone(true);
    },
    onError: (e) => {
      form.resetField('CurrentPassword');
      report(e, { codeFields: { 'Password.Incorrect': 'CurrentPassword', 'Password.NotSet': 'CurrentPassword' } });
    },
  });
  const errors = form.formState.errors;
  return (
    <AccountSection id="password" title="Password" description="Other browsers signed in to your account stay signed in.">
      <form
        className="form"
        noValidate
        aria-label="Change password"
        onSubmit={form.handleSubmit((v) => {
          clear();
          setDone(false);
          change.mutate(v);
        })}
      >
        <ErrorSummary summary={summary} ref={summaryRef} />
        {done ? <Alert tone="success" title="Your password was changed." /> : null}
        <PasswordField
          label="Current password"
          registration={form.register('CurrentPassword')}
          error={errors.CurrentPassword?.message}
          autoComplete="current-password"
        />
        <div className="form-grid">
          <PasswordField
            label="New password"
            registration={form.register('NewPassword')}
            error={errors.NewPassword?.message}
            autoComplete="new-password"
            hint={
              minLength
                ? `At least ${minLength} characters; common passwords and ones containing your name are refused.`
                : 'Common passwords and ones containing your name are refused.'
            }
          />
          <PasswordField label="Repeat the new password" registration={form.register('Repeat')} error={errors.Repeat?.message} autoComplete="new-password" />
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={change.isPending} busyLabel="Changing…">
            Change password
          </Button>
        </div>
      </form>
    </AccountSection>
  );
}
