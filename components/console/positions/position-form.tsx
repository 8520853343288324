'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { CheckboxField, TextAreaField, TextField } from '@/components/ui/field';
import { createPositionSchema } from '@/lib/domain/positions/schemas';
import { EditFormFooter } from '../edit-form-footer';
import { positionKeys, type Position } from './types';

// Create and edit a position (spec 4.7 "Positions"). Edits are a merge-patch that sends every field
// shown, so what is on screen is what is stored.
const schema = createPositionSchema.pick({ Name: true, Description: true }).extend({ IsActive: z.boolean() });
type Values = z.infer<typeof schema>;
const FIELDS = ['Name', 'Description', 'IsActive'] as const;

const valuesOf = (p?: Position): Values =>
  p ? { Name: p.Name, Description: p.Description ?? '', IsActive: p.IsActive } : { Name: '', Description: '', IsActive: true };

export function PositionForm({ position, canWrite, onSaved }: { position?: Position; canWrite: boolean; onSaved: (p: Position) => void }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(position) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (position && !form.formState.isDirty) form.reset(valuesOf(position));
  }, [position, form]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = { Name: v.Name, Description: v.Description || null, IsActive: v.IsActive };
      return position
        ? api<Position>(`/api/position/${encodeURIComponent(position.Id)}`, { method: 'PUT', body })
        : api<Position>('/api/position', { method: 'POST', body });
    },
    onSuccess: (p) => {
      queryClient.setQueryData(positionKeys.one(p.Id), p);
      void queryClient.invalidateQueries({ queryKey: positionKeys.all });
      form.reset(valuesOf(p));
      setSaved(true);
      onSaved(p);
    },
    onError: (e) => report(e, { codeFields: { 'Position.NameTaken': 'Name' } }),
  });

  const errors = form.formState.errors;
  return (
    <form
      className="card"
      noValidate
      aria-label={position ? 'Position settings' : 'New position'}
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <div className="card-body">
        <fieldset className="fieldset form" disabled={!canWrite}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && position && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          <TextField
            label="Name"
            hint="Where the terminals stand, such as “Front desk till”."
            registration={form.register('Name')}
            error={errors.Name?.message}
            autoFocus={!position}
          />
          <TextAreaField label="Description" optional registration={form.register('Description')} error={errors.Description?.message} rows={2} />
          {position ? (
            <CheckboxField
              label="Active"
              hint="An inactive position keeps its terminals working but takes no new ones."
              registration={form.register('IsActive')}
            />
          ) : null}
        </fieldset>
      </div>
      {canWrite ? (
        <EditFormFooter
          editing={Boolean(position)}
          dirty={form.formState.isDirty}
          busy={save.isPending}
          createLabel="Create position"
          cancelHref="/console/positions"
          onDiscard={() => {
            if (position) form.reset(valuesOf(position));
            clear();
          }}
        />
      ) : null}
    </form>
  );
}
