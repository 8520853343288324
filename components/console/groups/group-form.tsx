'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { TextAreaField, TextField } from '@/components/ui/field';
import { createGroupSchema } from '@/lib/domain/groups/schemas';
import { useAllGroups, useAllRoles, useAppLookup } from '../directory-queries';
import { keys, type Group } from '../directory-types';
import { EditFormFooter } from '../edit-form-footer';

// One form for creating and editing a group. PUT is a full replace except BoundTo (spec 4.7), and
// this form always sends every field, so what is on screen is what is stored.
// Name and Description follow the API's rules; BoundTo is edited as a choice plus a list of Apps.
const rules = createGroupSchema.shape;
const schema = createGroupSchema
  .pick({ Name: true, Description: true })
  .extend({
    Scope: z.enum(['all', 'some', 'none']),
    BoundApps: rules.BoundTo.unwrap().unwrap(),
    RoleIds: rules.RoleIds.unwrap().unwrap(),
    ParentGroupIds: rules.ParentGroupIds.unwrap().unwrap(),
  })
  .refine((v) => v.Scope !== 'some' || v.BoundApps.length > 0, { path: ['BoundApps'], message: 'Choose at least one application, or another option above.' });
type Values = z.infer<typeof schema>;
const FIELDS = ['Name', 'Description', 'BoundApps', 'RoleIds', 'ParentGroupIds'] as const;

function valuesOf(g?: Group): Values {
  if (!g) return { Name: '', Description: '', Scope: 'all', BoundApps: [], RoleIds: [], ParentGroupIds: [] };
  const scope = g.BoundTo.includes('*') ? 'all' : g.BoundTo.length === 0 ? 'none' : 'some';
  return {
    Name: g.Name,
    Description: g.Description ?? '',
    Scope: scope,
    BoundApps: g.BoundTo.filter((b) => b !== '*'),
    RoleIds: g.RoleIds,
    ParentGroupIds: g.ParentGroupIds,
  };
}

export function GroupForm({ group, canWrite, onSaved }: { group?: Group; canWrite: boolean; onSaved: (g: Group) => void }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(group) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [saved, setSaved] = useState(false);
  const apps = useAppLookup();
  const roles = useAllRoles();
  const groups = useAllGroups();
  const scope = useWatch({ control: form.control, name: 'Scope' });

  useEffect(() => {
    if (group && !form.formState.isDirty) form.reset(valuesOf(group));
  }, [group, form]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = {
        Name: v.Name,
        Description: v.Description || null,
        BoundTo: v.Scope === 'all' ? ['*'] : v.Scope === 'none' ? [] : v.BoundApps,
        RoleIds: v.RoleIds,
        ParentGroupIds: v.ParentGroupIds,
      };
      return group ? api<Group>(`/api/group/${encodeURIComponent(group.Id)}`, { method: 'PUT', body }) : api<Group>('/api/group', { method: 'POST', body });
    },
    onSuccess: (g) => {
      queryClient.setQueryData(keys.group(g.Id), g);
      void queryClient.invalidateQueries({ queryKey: keys.groups });
      void queryClient.invalidateQueries({ queryKey: keys.roles });
      form.reset(valuesOf(g));
      setSaved(true);
      onSaved(g);
    },
    onError: (e) => report(e, { codeFields: { 'Group.NameTaken': 'Name', 'Group.Cycle': 'ParentGroupIds', 'Group.BuiltIn': 'Name' } }),
  });

  const errors = form.formState.errors;
  const readOnly = !canWrite;
  const parentOptions = (groups.data?.items ?? [])
    .filter((g) => g.Id !== group?.Id && !(group?.ChildGroupIds ?? []).includes(g.Id))
    .map((g) => ({ value: g.Id, label: g.Name, hint: g.Description }));
  const roleOptions = (roles.data?.items ?? []).map((r) => ({
    value: r.Id,
    label: `${r.Name}`,
    hint: `${r.AppSlug} · ${r.Permissions.length} permission${r.Permissions.length === 1 ? '' : 's'}`,
  }));
  const appOptions = (apps.data ?? []).map((a) => ({ value: a.Slug, label: a.DisplayName, hint: a.Slug }));

  return (
    <form
      className="card"
      noValidate
      aria-label={group ? 'Group settings' : 'New group'}
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <div className="card-body">
        <fieldset className="fieldset form" disabled={readOnly}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && group && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          {group?.IsBuiltIn ? <Alert title="Built-in group">It cannot be renamed or deleted; its roles and nesting can change.</Alert> : null}
          <TextField label="Name" registration={form.register('Name')} error={errors.Name?.message} autoFocus={!group} />
          <TextAreaField label="Description" optional registration={form.register('Description')} error={errors.Description?.message} rows={2} />
          <fieldset className="fieldset">
            <legend>Applies to</legend>
            <p className="field-hint">A group grants its roles only in the applications it is bound to.</p>
            <label className="checkbox">
              <input type="radio" value="all" {...form.register('Scope')} />
              <span>All applications</span>
            </label>
            <label className="checkbox">
              <input type="radio" value="some" {...form.register('Scope')} />
              <span>Only some applications</span>
            </label>
            <label className="checkbox">
              <input type="radio" value="none" {...form.register('Scope')} />
              <span>
                None <span className="muted">(dormant: the group grants nothing)</span>
              </span>
            </label>
          </fieldset>
          {scope === 'some' ? (
            <Controller
              control={form.control}
              name="BoundApps"
              render={({ field }) => (
                <CheckboxList
                  legend="Applications"
                  options={appOptions}
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.BoundApps?.message}
                  empty={apps.isPending ? 'Loading…' : 'No applications.'}
                />
              )}
            />
          ) : null}
          <Controller
            control={form.control}
            name="RoleIds"
            render={({ field }) => (
              <CheckboxList
                legend="Roles"
                hint="Members receive these roles’ permissions."
                options={roleOptions}
                value={field.value}
                onChange={field.onChange}
                error={errors.RoleIds?.message}
                empty={roles.isPending ? 'Loading…' : roles.isError ? 'Roles could not be loaded.' : 'No roles yet.'}
              />
            )}
          />
          <Controller
            control={form.control}
            name="ParentGroupIds"
            render={({ field }) => (
              <CheckboxList
                legend="Member of"
                hint="Members of this group are also members of the groups chosen here."
                options={parentOptions}
                value={field.value}
                onChange={field.onChange}
                error={errors.ParentGroupIds?.message}
                empty={groups.isPending ? 'Loading…' : 'No other groups.'}
              />
            )}
          />
        </fieldset>
      </div>
      {canWrite ? (
        <EditFormFooter
          editing={Boolean(group)}
          dirty={form.formState.isDirty}
          busy={save.isPending}
          createLabel="Create group"
          cancelHref="/console/groups"
          onDiscard={() => {
            if (group) form.reset(valuesOf(group));
            clear();
          }}
        />
      ) : null}
    </form>
  );
}
