'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { InviteResult } from './invite-result';
import { initialAdminSchema } from '@/lib/domain/invites/schemas';
import type { AdminInvite } from './types';

const schema = initialAdminSchema;
type Values = z.infer<typeof schema>;
const FIELDS = ['UserName', 'Email', 'Firstname', 'Lastname'] as const;

/** Issues a realm's administrator invite (spec 3.3); earlier open invites stop working. */
export function AdminInviteForm({ slug }: { slug: string }) {
  const [invite, setInvite] = useState<AdminInvite | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { UserName: '', Email: '', Firstname: '', Lastname: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const issue = useMutation({
    mutationFn: (v: Values) =>
      api<AdminInvite>(`/api/admin/realms/${encodeURIComponent(slug)}/admin-invites`, {
        method: 'POST',
        body: { UserName: v.UserName, Email: v.Email, Firstname: v.Firstname || undefined, Lastname: v.Lastname || undefined },
      }),
    onSuccess: (result) => {
      setInvite(result);
      form.reset();
    },
    onError: (e) => report(e),
  });
  const errors = form.formState.errors;
  return (
    <section className="card" aria-labelledby="invite-heading">
      <div className="card-header">
        <h2 id="invite-heading">Invite an administrator</h2>
      </div>
      <div className="card-body stack">
        {invite ? (
          <>
            <InviteResult invite={invite} />
            <div>
              <Button onClick={() => setInvite(null)}>Invite someone else</Button>
            </div>
          </>
        ) : (
          <form
            className="form"
            noValidate
            onSubmit={form.handleSubmit((v) => {
              clear();
              issue.mutate(v);
            })}
          >
            <p className="muted small">
              The invitee gets a one-time link, valid for 24 hours, to choose a password. Issuing a new invite revokes any earlier open one.
            </p>
            <ErrorSummary summary={summary} ref={summaryRef} />
            <div className="form-grid">
              <TextField label="User name" registration={form.register('UserName')} error={errors.UserName?.message} autoCapitalize="none" spellCheck={false} />
              <TextField
                label="E-mail"
                type="email"
                registration={form.register('Email')}
                error={errors.Email?.message}
                autoCapitalize="none"
                spellCheck={false}
              />
              <TextField label="First name" optional registration={form.register('Firstname')} error={errors.Firstname?.message} />
              <TextField label="Last name" optional registration={form.register('Lastname')} error={errors.Lastname?.message} />
            </div>
            <div className="form-actions">
              <Button type="submit" variant="primary" busy={issue.isPending} busyLabel="Issuing…">
                Issue invite link
              </Button>
            </div>
          </form>
        )}
      </div>
    </section>
  );
}
