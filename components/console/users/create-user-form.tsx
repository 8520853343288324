'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { ErrorSummary } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { CheckboxField, PasswordField, TextField } from '@/components/ui/field';
import { createUserSchema } from '@/lib/domain/users/schemas';
import { keys, type User } from '../directory-types';

// The API's rules (createUserSchema), and the realm's minimum password length (its password policy,
// passed down by the page) on top, since an empty password means none.
const schemaFor = (minLength: number) =>
  createUserSchema.pick({ UserName: true, Email: true, Firstname: true, Lastname: true }).extend({
    Password: createUserSchema.shape.Password.unwrap()
      .unwrap()
      .refine((p) => p === '' || [...p].length >= minLength, `Use at least ${minLength} characters, or leave it empty.`),
    IsActive: z.boolean(),
  });
type Values = z.infer<ReturnType<typeof schemaFor>>;
const FIELDS = ['UserName', 'Email', 'Firstname', 'Lastname', 'Password'] as const;

export function CreateUserForm({ minLength }: { minLength: number }) {
  const schema = useMemo(() => schemaFor(minLength), [minLength]);
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { UserName: '', Email: '', Firstname: '', Lastname: '', Password: '', IsActive: true },
  });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const create = useMutation({
    mutationFn: (v: Values) =>
      api<User>('/api/user', {
        method: 'POST',
        body: {
          UserName: v.UserName,
          Email: v.Email,
          Firstname: v.Firstname || undefined,
          Lastname: v.Lastname || undefined,
          Password: v.Password || undefined,
          IsActive: v.IsActive,
        },
      }),
    onSuccess: (user) => {
      void queryClient.invalidateQueries({ queryKey: keys.users });
      router.push(`/console/users/${encodeURIComponent(user.Id)}?created=1`);
    },
    onError: (e) => report(e, { codeFields: { 'User.UserNameTaken': 'UserName', 'User.EmailTaken': 'Email', 'User.PasswordTooWeak': 'Password' } }),
  });
  const errors = form.formState.errors;
  return (
    <form
      className="card"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        create.mutate(v);
      })}
    >
      <div className="card-body form">
        <ErrorSummary summary={summary} ref={summaryRef} />
        <div className="form-grid">
          <TextField
            label="User name"
            registration={form.register('UserName')}
            error={errors.UserName?.message}
            autoCapitalize="none"
            spellCheck={false}
            autoComplete="off"
            autoFocus
          />
          <TextField
            label="E-mail"
            type="email"
            registration={form.register('Email')}
            error={errors.Email?.message}
            autoCapitalize="none"
            spellCheck={false}
            autoComplete="off"
          />
          <TextField label="First name" optional registration={form.register('Firstname')} error={errors.Firstname?.message} autoComplete="off" />
          <TextField label="Last name" optional registration={form.register('Lastname')} error={errors.Lastname?.message} autoComplete="off" />
        </div>
        <PasswordField
          label="Initial password"
          optional
          hint={`At least ${minLength} characters. Leave it empty to let the user sign in another way or set it later.`}
          registration={form.register('Password')}
          error={errors.Password?.message}
          autoComplete="new-password"
        />
        <CheckboxField label="Active" hint="Inactive users cannot sign in." registration={form.register('IsActive')} />
      </div>
      <div className="card-footer form-actions">
        <Button type="submit" variant="primary" busy={create.isPending || create.isSuccess} busyLabel="Creating…">
          Create user
        </Button>
        <Link href="/console/users" className={buttonClass('ghost')}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
