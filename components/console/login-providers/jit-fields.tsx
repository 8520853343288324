'use client';
import { Controller, useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import { problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { CheckboxField } from '@/components/ui/field';
import { useAllGroups } from '../directory-queries';
import type { ProviderBody, ProviderValues } from './provider-form-values';

/**
 * Just-in-time accounts (spec 4.5): whether a first sign-in nobody is linked to creates the person,
 * and the groups that person joins. Choosing groups needs authorization-group:read; without it the
 * stored choice is kept as it is.
 */
export function JitFields({
  control,
  register,
  error,
  canReadGroups,
}: {
  control: Control<ProviderValues, unknown, ProviderBody>;
  register: UseFormRegister<ProviderValues>;
  error?: string;
  canReadGroups: boolean;
}) {
  const enabled = useWatch({ control, name: 'Jit.Enabled' });
  const groups = useAllGroups(canReadGroups);
  return (
    <fieldset className="fieldset form">
      <legend>New accounts</legend>
      <CheckboxField
        label="Create accounts just in time"
        hint="A first sign-in that matches nobody here (no link, no verified e-mail) creates the person. Off: it is refused."
        registration={register('Jit.Enabled')}
      />
      {enabled && canReadGroups ? (
        <>
          {groups.isError ? (
            <Alert tone="danger" title="The groups could not be loaded.">
              {problemMessage(groups.error)}
            </Alert>
          ) : null}
          <Controller
            control={control}
            name="Jit.DefaultGroupIds"
            render={({ field }) => (
              <CheckboxList
                legend="Default groups"
                hint="Groups a person created just in time joins."
                options={(groups.data?.items ?? []).map((g) => ({ value: g.Id, label: g.Name }))}
                value={field.value}
                onChange={field.onChange}
                error={error}
                empty={groups.isPending ? 'Loading the groups…' : 'This realm has no groups.'}
              />
            )}
          />
        </>
      ) : null}
      {enabled && !canReadGroups ? <p className="muted small">Choosing default groups needs the permission authorization-group:read.</p> : null}
    </fieldset>
  );
}
