'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { createUserSchema } from '@/lib/domain/users/schemas';
import { keys, type User } from '../directory-types';
import { useReportDirty } from '@/components/realtime/live-detail';

// The API's rules for these fields (the create rules: here a user name and address are required).
const schema = createUserSchema.pick({ UserName: true, Email: true, Firstname: true, Lastname: true });
type Values = z.infer<typeof schema>;
const FIELDS = ['UserName', 'Email', 'Firstname', 'Lastname'] as const;
const valuesOf = (u: User): Values => ({ UserName: u.UserName, Email: u.Email, Firstname: u.Firstname ?? '', Lastname: u.Lastname ?? '' });

/** PUT /api/user/{id} is a merge-patch (spec 4.9): only the changed fields are sent; "" clears a name. */
export function UserProfileForm({ user, canWrite }: { user: User; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(user) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [saved, setSaved] = useState(false);
  useReportDirty(form.formState.isDirty);
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(valuesOf(user));
  }, [user, form]);
  const save = useMutation({
    mutationFn: (v: Values) => {
      const before = valuesOf(user);
      const body: Partial<Record<keyof Values, string | null>> = {};
      for (const k of FIELDS) if (v[k] !== before[k]) body[k] = v[k] === '' ? null : v[k];
      return api<User>(`/api/user/${encodeURIComponent(user.Id)}`, { method: 'PUT', body });
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(keys.user(user.Id), updated);
      void queryClient.invalidateQueries({ queryKey: keys.users });
      form.reset(valuesOf(updated));
      setSaved(true);
    },
    onError: (e) => report(e, { codeFields: { 'User.UserNameTaken': 'UserName', 'User.EmailTaken': 'Email' } }),
  });
  const errors = form.formState.errors;
  return (
    <form
      className="card"
      noValidate
      aria-labelledby="profile-heading"
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <div className="card-header">
        <h2 id="profile-heading">Profile</h2>
      </div>
      <div className="card-body">
        <fieldset className="fieldset form" disabled={!canWrite || user.IsDeleted}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          <div className="form-grid">
            <TextField
              label="User name"
              registration={form.register('UserName')}
              error={errors.UserName?.message}
              autoCapitalize="none"
              spellCheck={false}
              autoComplete="off"
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
        </fieldset>
      </div>
      {canWrite && !user.IsDeleted ? (
        <div className="card-footer form-actions">
          <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…" disabled={!form.formState.isDirty}>
            Save changes
          </Button>
          {form.formState.isDirty ? (
            <Button
              variant="ghost"
              onClick={() => {
                form.reset(valuesOf(user));
                clear();
              }}
            >
              Discard
            </Button>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
