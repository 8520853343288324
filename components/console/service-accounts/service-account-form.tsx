'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, problemMessage } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { CheckboxField, TextAreaField, TextField } from '@/components/ui/field';
import { createServiceAccountSchema } from '@/lib/domain/service-accounts/schemas';
import { useAllGroups } from '../directory-queries';
import { oauthKeys, type ServiceAccount } from '../oauth-types';
import { EditFormFooter } from '../edit-form-footer';

// Create and edit a service account (CONTRACT.md: Name, Description?, GroupIds?). Its permissions
// come from the groups it joins, as a person's do. Edits are a merge-patch that always sends every
// field shown: GroupIds replaces the memberships, IsActive false also disables its credentials.
const rules = createServiceAccountSchema.shape;
const schema = createServiceAccountSchema.pick({ Name: true, Description: true }).extend({ GroupIds: rules.GroupIds.unwrap().unwrap(), IsActive: z.boolean() });
type Values = z.infer<typeof schema>;
const FIELDS = ['Name', 'Description', 'GroupIds', 'IsActive'] as const;

const valuesOf = (a?: ServiceAccount): Values =>
  a
    ? { Name: a.Name, Description: a.Description ?? '', GroupIds: a.GroupIds, IsActive: a.IsActive }
    : { Name: '', Description: '', GroupIds: [], IsActive: true };

export function ServiceAccountForm({
  account,
  canWrite,
  canReadGroups,
  onSaved,
}: {
  account?: ServiceAccount;
  canWrite: boolean;
  canReadGroups: boolean;
  onSaved: (a: ServiceAccount) => void;
}) {
  const queryClient = useQueryClient();
  const groups = useAllGroups(canReadGroups);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(account) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (account && !form.formState.isDirty) form.reset(valuesOf(account));
  }, [account, form]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = { Name: v.Name, Description: v.Description || null, GroupIds: v.GroupIds, IsActive: v.IsActive };
      return account
        ? api<ServiceAccount>(`/api/service-account/${encodeURIComponent(account.Id)}`, { method: 'PUT', body })
        : api<ServiceAccount>('/api/service-account', { method: 'POST', body });
    },
    onSuccess: (a) => {
      queryClient.setQueryData(oauthKeys.serviceAccount(a.Id), a);
      void queryClient.invalidateQueries({ queryKey: oauthKeys.serviceAccounts });
      // Deactivating disables the credentials' clients too.
      void queryClient.invalidateQueries({ queryKey: oauthKeys.clients });
      form.reset(valuesOf(a));
      setSaved(true);
      onSaved(a);
    },
    onError: (e) => report(e, { codeFields: { 'ServiceAccount.NameTaken': 'Name', 'Group.NotFound': 'GroupIds' } }),
  });

  const errors = form.formState.errors;
  const readOnly = !canWrite;
  const groupOptions = (groups.data?.items ?? []).map((g) => ({ value: g.Id, label: g.Name, hint: g.Description }));

  return (
    <form
      className="card"
      noValidate
      aria-label={account ? 'Service account settings' : 'New service account'}
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <div className="card-body">
        <fieldset className="fieldset form" disabled={readOnly}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && account && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          <TextField label="Name" registration={form.register('Name')} error={errors.Name?.message} autoFocus={!account} />
          <TextAreaField label="Description" optional registration={form.register('Description')} error={errors.Description?.message} rows={2} />
          {canReadGroups ? (
            <>
              {groups.isError ? (
                <Alert tone="danger" title="The groups could not be loaded.">
                  {problemMessage(groups.error)}
                </Alert>
              ) : null}
              <Controller
                control={form.control}
                name="GroupIds"
                render={({ field }) => (
                  <CheckboxList
                    legend="Groups"
                    hint="The account gets the roles these groups grant."
                    options={groupOptions}
                    value={field.value}
                    onChange={field.onChange}
                    error={errors.GroupIds?.message}
                    empty={groups.isPending ? 'Loading the groups…' : 'This realm has no groups yet.'}
                  />
                )}
              />
            </>
          ) : (
            <p className="muted small">Member of {account?.GroupIds.length ?? 0} group(s). Choosing groups needs the permission authorization-group:read.</p>
          )}
          {account ? (
            <CheckboxField label="Active" hint="An inactive account’s credentials stop working at once." registration={form.register('IsActive')} />
          ) : null}
        </fieldset>
      </div>
      {!readOnly ? (
        <EditFormFooter
          editing={Boolean(account)}
          dirty={form.formState.isDirty}
          busy={save.isPending}
          createLabel="Create service account"
          cancelHref="/console/service-accounts"
          onDiscard={() => {
            if (account) form.reset(valuesOf(account));
            clear();
          }}
        />
      ) : null}
    </form>
  );
}
