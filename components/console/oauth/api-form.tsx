'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { createApiSchema } from '@/lib/domain/oauth-apis/schemas';
import { useAppLookup } from '../directory-queries';
import { EditFormFooter } from '../edit-form-footer';
import { oauthKeys, type OAuthApi } from '../oauth-types';

// Create and edit an OAuth API. PUT is a merge-patch; the audience is the API's `aud` and never
// changes, so the edit form shows it read-only and does not send it.
const schema = createApiSchema.extend({ AppId: createApiSchema.shape.AppId.unwrap().unwrap() });
type Values = z.infer<typeof schema>;
const FIELDS = ['Name', 'Audience', 'DisplayName', 'Description', 'AppId'] as const;

const valuesOf = (a?: OAuthApi): Values =>
  a
    ? { Name: a.Name, Audience: a.Audience, DisplayName: a.DisplayName ?? '', Description: a.Description ?? '', AppId: a.AppId ?? '' }
    : { Name: '', Audience: '', DisplayName: '', Description: '', AppId: '' };

export function ApiForm({ oauthApi, canWrite, onSaved }: { oauthApi?: OAuthApi; canWrite: boolean; onSaved: (a: OAuthApi) => void }) {
  const queryClient = useQueryClient();
  const apps = useAppLookup();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(oauthApi) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  // The select gets its options only once the Apps are loaded: put the chosen App back then.
  useEffect(() => {
    if (apps.data) form.setValue('AppId', form.getValues('AppId'));
  }, [apps.data, form]);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (oauthApi && !form.formState.isDirty) form.reset(valuesOf(oauthApi));
  }, [oauthApi, form]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const common = { Name: v.Name, DisplayName: v.DisplayName || null, Description: v.Description || null, AppId: v.AppId || null };
      return oauthApi
        ? api<OAuthApi>(`/api/admin/oauth/apis/${encodeURIComponent(oauthApi.Id)}`, { method: 'PUT', body: common })
        : api<OAuthApi>('/api/admin/oauth/apis', { method: 'POST', body: { ...common, Audience: v.Audience } });
    },
    onSuccess: (a) => {
      queryClient.setQueryData(oauthKeys.api(a.Id), a);
      void queryClient.invalidateQueries({ queryKey: oauthKeys.apis });
      form.reset(valuesOf(a));
      setSaved(true);
      onSaved(a);
    },
    onError: (e) => report(e, { codeFields: { 'OAuthApi.NameTaken': 'Name', 'OAuthApi.AudienceTaken': 'Audience', 'App.NotFound': 'AppId' } }),
  });

  const errors = form.formState.errors;
  const readOnly = !canWrite;
  return (
    <form
      className="card"
      noValidate
      aria-label={oauthApi ? 'API settings' : 'New API'}
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <div className="card-body">
        <fieldset className="fieldset form" disabled={readOnly}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && oauthApi && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          <div className="form-grid">
            <TextField label="Name" hint="A short unique name." registration={form.register('Name')} error={errors.Name?.message} autoFocus={!oauthApi} />
            {oauthApi ? (
              <div className="field">
                <span className="field-label">Audience</span>
                <span className="input mono" aria-readonly="true">
                  {oauthApi.Audience}
                </span>
                <span className="field-hint">The audience never changes: tokens already issued carry it.</span>
              </div>
            ) : (
              <TextField
                label="Audience"
                hint="The resource indicator and the aud of its access tokens: an absolute URI or a URN. It cannot be changed later."
                registration={form.register('Audience')}
                error={errors.Audience?.message}
                className="input mono"
              />
            )}
            <TextField label="Display name" optional registration={form.register('DisplayName')} error={errors.DisplayName?.message} />
            <SelectField
              label="Application"
              optional
              hint="The application whose catalog the API serves."
              registration={form.register('AppId')}
              error={errors.AppId?.message}
            >
              <option value="">None</option>
              {(apps.data ?? []).map((a) => (
                <option key={a.Id} value={a.Id}>
                  {a.DisplayName} ({a.Slug})
                </option>
              ))}
            </SelectField>
          </div>
          <TextAreaField label="Description" optional registration={form.register('Description')} error={errors.Description?.message} rows={2} />
        </fieldset>
      </div>
      {!readOnly ? (
        <EditFormFooter
          editing={Boolean(oauthApi)}
          dirty={form.formState.isDirty}
          busy={save.isPending}
          createLabel="Create API"
          cancelHref="/console/oauth/apis"
          onDiscard={() => {
            if (oauthApi) form.reset(valuesOf(oauthApi));
            clear();
          }}
        />
      ) : null}
    </form>
  );
}
