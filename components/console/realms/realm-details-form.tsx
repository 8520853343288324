'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { createRealmSchema } from '@/lib/domain/realms/schemas';
import { parseDomains, realmKeys, type Realm } from './types';
import { useReportDirty } from '@/components/realtime/live-detail';

const schema = z
  .object({
    DisplayName: createRealmSchema.shape.DisplayName,
    Description: createRealmSchema.shape.Description,
    Domains: z.string().refine((t) => parseDomains(t).length > 0, 'Enter at least one domain.'),
    PrimaryDomain: z.string(),
  })
  .refine((v) => parseDomains(v.Domains).includes(v.PrimaryDomain), { path: ['PrimaryDomain'], message: 'Choose one of the domains above.' });
type Values = z.infer<typeof schema>;
const FIELDS = ['DisplayName', 'Description', 'Domains', 'PrimaryDomain'] as const;

const valuesOf = (r: Realm): Values => ({
  DisplayName: r.DisplayName,
  Description: r.Description ?? '',
  Domains: r.Domains.join('\n'),
  PrimaryDomain: r.PrimaryDomain,
});

/** Merge-patch of a realm's editable fields (spec 4.8 Edit); only changed fields are sent. */
export function RealmDetailsForm({ realm, canWrite }: { realm: Realm; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(realm) });
  useReportDirty(form.formState.isDirty);
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [saved, setSaved] = useState(false);
  const domainsText = useWatch({ control: form.control, name: 'Domains' });
  const domains = parseDomains(domainsText);

  useEffect(() => {
    if (!form.formState.isDirty) form.reset(valuesOf(realm));
  }, [realm, form]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body: Record<string, unknown> = {};
      if (v.DisplayName !== realm.DisplayName) body.DisplayName = v.DisplayName;
      if (v.Description !== (realm.Description ?? '')) body.Description = v.Description || null;
      const list = parseDomains(v.Domains);
      if (list.join('\n') !== realm.Domains.join('\n')) body.Domains = list;
      if (v.PrimaryDomain !== realm.PrimaryDomain) body.PrimaryDomain = v.PrimaryDomain;
      return api<Realm>(`/api/admin/realms/${encodeURIComponent(realm.Slug)}`, { method: 'PATCH', body });
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(realmKeys.one(realm.Slug), updated);
      void queryClient.invalidateQueries({ queryKey: realmKeys.all });
      form.reset(valuesOf(updated));
      setSaved(true);
    },
    onError: (e) =>
      report(e, { codeFields: { 'Realm.DomainTaken': 'Domains', 'Realm.DomainInvalid': 'Domains', 'Realm.PrimaryDomainNotInDomains': 'PrimaryDomain' } }),
  });

  const errors = form.formState.errors;
  const primaryChanged = useWatch({ control: form.control, name: 'PrimaryDomain' }) !== realm.PrimaryDomain;
  return (
    <form
      className="card"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
      aria-labelledby="details-heading"
    >
      <div className="card-header">
        <h2 id="details-heading">Details</h2>
      </div>
      <div className="card-body">
        <fieldset className="fieldset form" disabled={!canWrite}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          <TextField label="Display name" registration={form.register('DisplayName')} error={errors.DisplayName?.message} />
          <TextAreaField label="Description" optional registration={form.register('Description')} error={errors.Description?.message} rows={2} />
          <TextAreaField
            label="Domains"
            hint="Host names that select this realm, one per line."
            registration={form.register('Domains')}
            error={errors.Domains?.message}
            rows={3}
            spellCheck={false}
            autoCapitalize="none"
          />
          <SelectField
            label="Primary domain"
            hint="The realm’s public origin and passkey relying party."
            registration={form.register('PrimaryDomain')}
            error={errors.PrimaryDomain?.message}
          >
            {(domains.includes(realm.PrimaryDomain) ? domains : [realm.PrimaryDomain, ...domains]).map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </SelectField>
          {primaryChanged ? <Alert tone="warning" title="Changing the primary domain invalidates every passkey registered in this realm." /> : null}
        </fieldset>
      </div>
      {canWrite ? (
        <div className="card-footer form-actions">
          <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…" disabled={!form.formState.isDirty}>
            Save changes
          </Button>
          {form.formState.isDirty ? (
            <Button
              variant="ghost"
              onClick={() => {
                form.reset(valuesOf(realm));
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
