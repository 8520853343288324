'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { api, problemMessage } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { createRoleSchema } from '@/lib/domain/roles/schemas';
import { useAppLookup } from '../directory-queries';
import { keys, type App, type Role } from '../directory-types';
import { EditFormFooter } from '../edit-form-footer';

// Create and edit a role. PUT is a full replace including the permission set (spec 4.7); the
// permissions are chosen from the App's catalog, so nothing outside it can be picked.
const schema = createRoleSchema;
type Values = z.infer<typeof schema>;
const FIELDS = ['Name', 'AppId', 'Description', 'Permissions'] as const;

const valuesOf = (r?: Role, appId = ''): Values =>
  r
    ? { Name: r.Name, AppId: r.AppId, Description: r.Description ?? '', Permissions: r.Permissions }
    : { Name: '', AppId: appId, Description: '', Permissions: [] };

export function RoleForm({ role, canWrite, onSaved }: { role?: Role; canWrite: boolean; onSaved: (r: Role) => void }) {
  const queryClient = useQueryClient();
  const apps = useAppLookup();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(role) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [saved, setSaved] = useState(false);
  const appId = useWatch({ control: form.control, name: 'AppId' });
  const app = useQuery({
    queryKey: keys.app(appId),
    queryFn: ({ signal }) => api<App>(`/api/app/${encodeURIComponent(appId)}`, { signal }),
    enabled: Boolean(appId),
  });

  // A new role starts on the built-in application.
  useEffect(() => {
    if (!role && !form.getValues('AppId') && apps.data?.length) {
      const builtIn = apps.data.find((a) => a.Slug === 'gatehouse') ?? apps.data[0];
      form.setValue('AppId', builtIn.Id);
    }
  }, [apps.data, role, form]);
  useEffect(() => {
    if (role && !form.formState.isDirty) form.reset(valuesOf(role));
  }, [role, form]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = { Name: v.Name, AppId: v.AppId, Description: v.Description || null, Permissions: v.Permissions };
      return role ? api<Role>(`/api/role/${encodeURIComponent(role.Id)}`, { method: 'PUT', body }) : api<Role>('/api/role', { method: 'POST', body });
    },
    onSuccess: (r) => {
      queryClient.setQueryData(keys.role(r.Id), r);
      void queryClient.invalidateQueries({ queryKey: keys.roles });
      form.reset(valuesOf(r));
      setSaved(true);
      onSaved(r);
    },
    onError: (e) => report(e, { codeFields: { 'Role.NameTaken': 'Name', 'Role.PermissionNotInCatalog': 'Permissions', 'App.NotFound': 'AppId' } }),
  });

  const errors = form.formState.errors;
  const catalog = app.data?.PermissionCatalog ?? [];
  const known = new Set(catalog.map((c) => c.Name));
  const options = [
    ...catalog.map((c) => ({ value: c.Name, label: <span className="mono">{c.Name}</span>, hint: c.Description })),
    // Permissions the role holds that the catalog no longer lists stay visible, so they can be removed.
    ...(role?.Permissions ?? [])
      .filter((p) => !known.has(p) && app.data)
      .map((p) => ({ value: p, label: <span className="mono">{p}</span>, hint: 'Not in the application’s catalog any more.' })),
  ];
  const readOnly = !canWrite || Boolean(role?.IsBuiltIn);

  return (
    <form
      className="card"
      noValidate
      aria-label={role ? 'Role settings' : 'New role'}
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <div className="card-body">
        <fieldset className="fieldset form" disabled={readOnly}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && role && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          {role?.IsBuiltIn ? <Alert title="Built-in role">It cannot be changed or deleted.</Alert> : null}
          <div className="form-grid">
            <TextField label="Name" registration={form.register('Name')} error={errors.Name?.message} autoFocus={!role} />
            {role ? (
              <div className="field">
                <span className="field-label">Application</span>
                <span className="input" aria-readonly="true">
                  {apps.data?.find((a) => a.Id === role.AppId)?.DisplayName ?? role.AppSlug} <span className="muted">({role.AppSlug})</span>
                </span>
                <span className="field-hint">A role stays with its application.</span>
              </div>
            ) : (
              <SelectField
                label="Application"
                hint="The application whose permissions the role grants."
                registration={form.register('AppId', { onChange: () => form.setValue('Permissions', []) })}
                error={errors.AppId?.message}
              >
                {apps.isPending ? <option value="">Loading…</option> : null}
                {(apps.data ?? []).map((a) => (
                  <option key={a.Id} value={a.Id}>
                    {a.DisplayName} ({a.Slug})
                  </option>
                ))}
              </SelectField>
            )}
          </div>
          <TextAreaField label="Description" optional registration={form.register('Description')} error={errors.Description?.message} rows={2} />
          {app.isError ? (
            <Alert tone="danger" title="The application’s permission catalog could not be loaded.">
              {problemMessage(app.error)}
            </Alert>
          ) : null}
          <Controller
            control={form.control}
            name="Permissions"
            render={({ field }) => (
              <CheckboxList
                legend="Permissions"
                options={options}
                value={field.value}
                onChange={field.onChange}
                error={errors.Permissions?.message}
                empty={app.isPending ? 'Loading the catalog…' : 'This application has no permissions in its catalog.'}
              />
            )}
          />
        </fieldset>
      </div>
      {!readOnly ? (
        <EditFormFooter
          editing={Boolean(role)}
          dirty={form.formState.isDirty}
          busy={save.isPending}
          createLabel="Create role"
          cancelHref="/console/roles"
          onDiscard={() => {
            if (role) form.reset(valuesOf(role));
            clear();
          }}
        />
      ) : null}
    </form>
  );
}
