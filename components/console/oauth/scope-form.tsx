'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { TextAreaField, TextField } from '@/components/ui/field';
import { createScopeSchema } from '@/lib/domain/oauth-scopes/schemas';
import { EditFormFooter } from '../edit-form-footer';
import { useAllApis } from '../oauth-queries';
import { oauthKeys, type OAuthScope } from '../oauth-types';

// Create and edit an OAuth scope. PUT is a merge-patch; the resources are chosen from the realm's
// APIs (the server refuses an audience no API has). A built-in scope keeps its name and resources,
// so for one only the words are sent.
const schema = createScopeSchema.extend({ Resources: createScopeSchema.shape.Resources.unwrap().unwrap() });
type Values = z.infer<typeof schema>;
const FIELDS = ['Name', 'DisplayName', 'Description', 'Resources'] as const;

const valuesOf = (s?: OAuthScope): Values =>
  s
    ? { Name: s.Name, DisplayName: s.DisplayName ?? '', Description: s.Description ?? '', Resources: s.Resources }
    : { Name: '', DisplayName: '', Description: '', Resources: [] };

export function ScopeForm({ scope, canWrite, onSaved }: { scope?: OAuthScope; canWrite: boolean; onSaved: (s: OAuthScope) => void }) {
  const queryClient = useQueryClient();
  const apis = useAllApis();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(scope) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [saved, setSaved] = useState(false);
  const builtIn = Boolean(scope?.IsBuiltIn);

  useEffect(() => {
    if (scope && !form.formState.isDirty) form.reset(valuesOf(scope));
  }, [scope, form]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const words = { DisplayName: v.DisplayName || null, Description: v.Description || null };
      if (!scope) return api<OAuthScope>('/api/admin/oauth/scopes', { method: 'POST', body: { ...words, Name: v.Name, Resources: v.Resources } });
      const body = builtIn ? words : { ...words, Name: v.Name, Resources: v.Resources };
      return api<OAuthScope>(`/api/admin/oauth/scopes/${encodeURIComponent(scope.Id)}`, { method: 'PUT', body });
    },
    onSuccess: (s) => {
      queryClient.setQueryData(oauthKeys.scope(s.Id), s);
      void queryClient.invalidateQueries({ queryKey: oauthKeys.scopes });
      form.reset(valuesOf(s));
      setSaved(true);
      onSaved(s);
    },
    onError: (e) => report(e, { codeFields: { 'OAuthScope.NameTaken': 'Name', 'OAuthScope.BuiltIn': 'Name' } }),
  });

  const errors = form.formState.errors;
  const known = new Set((apis.data?.items ?? []).map((a) => a.Audience));
  const options = [
    ...(apis.data?.items ?? []).map((a) => ({ value: a.Audience, label: a.DisplayName || a.Name, hint: <span className="mono">{a.Audience}</span> })),
    // An audience the scope grants but no API has any more stays visible, so it can be removed.
    ...(scope?.Resources ?? [])
      .filter((r) => apis.data && !known.has(r))
      .map((r) => ({ value: r, label: <span className="mono">{r}</span>, hint: 'No API has this audience any more.' })),
  ];
  const readOnly = !canWrite;

  return (
    <form
      className="card"
      noValidate
      aria-label={scope ? 'Scope settings' : 'New scope'}
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <div className="card-body">
        <fieldset className="fieldset form" disabled={readOnly}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && scope && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          {builtIn ? <Alert title="Built-in scope">Its name and resources cannot change; its display name and description can.</Alert> : null}
          <div className="form-grid">
            <TextField
              label="Name"
              hint="The scope token clients ask for."
              registration={form.register('Name')}
              error={errors.Name?.message}
              readOnly={builtIn}
              className="input mono"
              autoFocus={!scope}
            />
            <TextField
              label="Display name"
              optional
              hint="Shown on the consent screen."
              registration={form.register('DisplayName')}
              error={errors.DisplayName?.message}
            />
          </div>
          <TextAreaField label="Description" optional registration={form.register('Description')} error={errors.Description?.message} rows={2} />
          <Controller
            control={form.control}
            name="Resources"
            render={({ field }) => (
              <CheckboxList
                legend="APIs it grants access to"
                options={options}
                value={field.value}
                onChange={field.onChange}
                error={errors.Resources?.message}
                empty={apis.isPending ? 'Loading the APIs…' : 'This realm has no OAuth API yet.'}
                disabled={builtIn}
              />
            )}
          />
        </fieldset>
      </div>
      {!readOnly ? (
        <EditFormFooter
          editing={Boolean(scope)}
          dirty={form.formState.isDirty}
          busy={save.isPending}
          createLabel="Create scope"
          cancelHref="/console/oauth/scopes"
          onDiscard={() => {
            if (scope) form.reset(valuesOf(scope));
            clear();
          }}
        />
      ) : null}
    </form>
  );
}
