'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import type { LoginOutcome } from './login-outcome';

type Values = { Code: string };
const FIELDS = ['Code'] as const;

/**
 * A 6-digit code entry (authenticator app, e-mailed code, enrolment check). A refused code is shown
 * at the field and the field is emptied for the next try; other problems go to the summary.
 */
export function CodeForm({
  label,
  hint,
  invalidMessage,
  submitLabel,
  busyLabel,
  send,
  onOutcome,
  children,
}: {
  label: string;
  hint?: ReactNode;
  invalidMessage: string;
  submitLabel: string;
  busyLabel: string;
  send: (code: string) => Promise<LoginOutcome>;
  onOutcome: (o: LoginOutcome) => void;
  children?: ReactNode;
}) {
  const schema = z.object({
    Code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, invalidMessage),
  });
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { Code: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const verify = useMutation({
    mutationFn: (v: Values) => send(v.Code.trim()),
    onSuccess: onOutcome,
    onError: (e) => {
      // Wrong, expired or replayed codes (400 Code.* / Mfa.*): the message belongs at the field.
      if (e instanceof ApiError && e.status === 400 && !e.problem.errors) {
        form.resetField('Code');
        form.setError('Code', { message: e.problem.detail ?? e.problem.title }, { shouldFocus: true });
        return;
      }
      report(e);
    },
  });
  const done = verify.isSuccess;
  return (
    <form
      className="form"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        verify.mutate(v);
      })}
    >
      <ErrorSummary summary={summary} ref={summaryRef} />
      <TextField
        label={label}
        hint={hint}
        registration={form.register('Code')}
        error={form.formState.errors.Code?.message}
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus
      />
      <Button type="submit" variant="primary" block busy={verify.isPending || done} busyLabel={done ? 'Signing you in…' : busyLabel}>
        {submitLabel}
      </Button>
      {children}
    </form>
  );
}
