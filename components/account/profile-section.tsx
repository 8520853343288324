'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, api, problemMessage } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { profileRequestBodySchema } from '@/lib/domain/profile-requests/schemas';
import { FIELD_LABELS, PROFILE_FIELDS, STATUS_LABELS, accountKeys, shownValue, type ChangeRequest, type OwnRequests } from './account-types';
import { AccountSection } from './section';

export type ProfileUser = { UserName: string; Email: string; Firstname?: string | null; Lastname?: string | null; Acronym?: string | null };

const schema = profileRequestBodySchema;
type Values = z.infer<typeof schema>;

const current = (u: ProfileUser): Values => ({ Firstname: u.Firstname ?? '', Lastname: u.Lastname ?? '', Acronym: u.Acronym ?? '', Email: u.Email });

function RequestChanges({ request, user }: { request: ChangeRequest; user: ProfileUser }) {
  const now = current(user);
  const fields = PROFILE_FIELDS.filter((f) => request.Changes[f] !== undefined);
  return (
    <div className="table-wrap">
      <table className="table account-change-table">
        <caption className="visually-hidden">Requested changes</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Now</th>
            <th scope="col">Requested</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={f}>
              <th scope="row">{FIELD_LABELS[f]}</th>
              <td>{shownValue(request.Current?.[f] ?? now[f])}</td>
              <td className="account-diff-new">{shownValue(request.Changes[f])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Profile (spec 3.4, 4.2): current values, and changes asked for through a change request. */
export function ProfileSection({ user }: { user: ProfileUser }) {
  const queryClient = useQueryClient();
  const requests = useQuery({ queryKey: accountKeys.profileRequest, queryFn: ({ signal }) => api<OwnRequests>('/api/account/profile/request', { signal }) });
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: current(user) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, PROFILE_FIELDS);
  const submit = useMutation({
    mutationFn: async (v: Values) => {
      const before = current(user);
      const body: z.input<typeof profileRequestBodySchema> = {};
      for (const f of PROFILE_FIELDS) if (v[f] !== before[f]) body[f] = v[f];
      if (Object.keys(body).length === 0) throw new ApiError({ title: 'Change at least one field before sending the request.', status: 400 });
      return api<ChangeRequest>('/api/account/profile/request', { method: 'PUT', body });
    },
    onSuccess: (request) => {
      // 202 and 200 share the body: its Status says whether the new mailbox must answer first.
      queryClient.setQueryData<OwnRequests>(accountKeys.profileRequest, (old) => ({ ...old, Open: request }));
      setEditing(false);
      setNotice(
        request.Status === 'AwaitingEmailVerification'
          ? 'Request sent. We e-mailed a link to the new address: open it to confirm the address, then an administrator decides.'
          : 'Request sent. An administrator will review it.',
      );
    },
    onError: (e) => report(e, { messages: { 'ChangeRequest.AlreadyOpen': 'You already have an open request. Cancel it first to ask for something else.' } }),
  });
  const cancel = useMutation({
    mutationFn: () => api<ChangeRequest>('/api/account/profile/request', { method: 'DELETE' }),
    onSuccess: () => {
      setNotice('Your request was cancelled.');
      void queryClient.invalidateQueries({ queryKey: accountKeys.profileRequest });
    },
  });
  const open = requests.data?.Open;
  const decided = requests.data?.LastDecided;
  const errors = form.formState.errors;
  const fullName = [user.Firstname, user.Lastname].filter(Boolean).join(' ');
  return (
    <AccountSection
      id="profile"
      title="Profile"
      description="Your name and address are changed by request: an administrator of this realm approves each change."
    >
      <dl className="dl">
        <dt>User name</dt>
        <dd>{user.UserName}</dd>
        <dt>Name</dt>
        <dd>{fullName || <span className="muted">Not set</span>}</dd>
        <dt>Acronym</dt>
        <dd>{user.Acronym || <span className="muted">Not set</span>}</dd>
        <dt>E-mail</dt>
        <dd>{user.Email}</dd>
      </dl>
      {notice ? <Alert tone="success" title={notice} /> : null}
      <QueryState isPending={requests.isPending} error={requests.error} onRetry={() => requests.refetch()}>
        {open ? (
          <div className="stack-sm" aria-labelledby="open-request-heading" role="region">
            <h3 id="open-request-heading">
              Your open request <span className={open.Status === 'Open' ? 'badge badge-brand' : 'badge'}>{STATUS_LABELS[open.Status]}</span>
            </h3>
            <p className="muted small">Sent {formatDate(open.CreatedAt)}.</p>
            <RequestChanges request={open} user={user} />
            <div className="row">
              <Button
                variant="danger"
                size="sm"
                busy={cancel.isPending}
                busyLabel="Cancelling…"
                onClick={() => {
                  setNotice(null);
                  cancel.mutate();
                }}
              >
                Cancel request
              </Button>
              {cancel.isError ? (
                <span role="alert" className="field-error">
                  {problemMessage(cancel.error)}
                </span>
              ) : null}
            </div>
          </div>
        ) : editing ? (
          <form
            className="form"
            noValidate
            aria-labelledby="request-change-heading"
            onSubmit={form.handleSubmit((v) => {
              clear();
              setNotice(null);
              submit.mutate(v);
            })}
          >
            <h3 id="request-change-heading">Request a change</h3>
            <ErrorSummary summary={summary} ref={summaryRef} />
            <div className="form-grid">
              <TextField label="First name" optional registration={form.register('Firstname')} error={errors.Firstname?.message} autoComplete="given-name" />
              <TextField label="Last name" optional registration={form.register('Lastname')} error={errors.Lastname?.message} autoComplete="family-name" />
              <TextField
                label="Acronym"
                optional
                registration={form.register('Acronym')}
                error={errors.Acronym?.message}
                hint="Short initials some applications show."
                autoComplete="off"
              />
              <TextField
                label="E-mail"
                type="email"
                registration={form.register('Email')}
                error={errors.Email?.message}
                hint="A new address must be confirmed through a link we send to it."
                autoComplete="email"
                spellCheck={false}
                autoCapitalize="none"
              />
            </div>
            <div className="form-actions">
              <Button type="submit" variant="primary" busy={submit.isPending} busyLabel="Sending…">
                Send request
              </Button>
              <Button
                variant="ghost"
                onClick={() => {
                  setEditing(false);
                  clear();
                  form.reset(current(user));
                }}
              >
                Cancel
              </Button>
            </div>
          </form>
        ) : (
          <div>
            <Button
              onClick={() => {
                form.reset(current(user));
                setNotice(null);
                setEditing(true);
              }}
            >
              Request a change
            </Button>
          </div>
        )}
        {decided ? (
          <div className="stack-sm" role="region" aria-labelledby="decided-request-heading">
            <h3 id="decided-request-heading">
              Last decided request{' '}
              <span className={decided.Status === 'Approved' ? 'badge badge-success' : 'badge badge-danger'}>{STATUS_LABELS[decided.Status]}</span>
            </h3>
            <p className="muted small">
              Sent {formatDate(decided.CreatedAt)}, decided {formatDate(decided.DecidedAt)}.
            </p>
            {decided.Reason ? (
              <p>
                <strong>Reason:</strong> {decided.Reason}
              </p>
            ) : null}
            <RequestChanges request={decided} user={user} />
          </div>
        ) : null}
      </QueryState>
    </AccountSection>
  );
}
