'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { mintInviteCodesSchema } from '@/lib/domain/invite-codes/schemas';
import type { AppLookup } from '../directory-types';
import { inviteKeys, mintedCodes, type MintAnswer, type MintedCode } from './types';

// Minting (POST /api/app/{appId}/invite-codes): one code or several with the same label and expiry.
// The answer carries the plaintext codes once; the parent shows them.
const rules = mintInviteCodesSchema.shape;
const schema = z.object({
  AppId: z.string().min(1, 'Choose the application the codes sign people up to.'),
  Label: rules.Label.unwrap().unwrap().max(200, 'Use at most 200 characters.'),
  // A day in the administrator's time zone: the code works until that day ends.
  ExpiresOn: z.string().refine((v) => !v || endOfDay(v).getTime() > Date.now(), 'Choose a day from today on, or leave it empty.'),
  Count: z
    .number({ error: 'Enter a whole number.' })
    .int('Enter a whole number.')
    .min(1, 'Mint at least 1 code.')
    .max(100, 'Mint at most 100 codes at a time.'),
});
type Values = z.infer<typeof schema>;
const FIELDS = ['AppId', 'Label', 'ExpiresOn', 'Count'] as const;

function endOfDay(day: string): Date {
  return new Date(`${day}T23:59:59.999`);
}

export function MintInviteCodes({ apps, onMinted }: { apps: AppLookup[]; onMinted: (codes: MintedCode[], app: AppLookup) => void }) {
  const queryClient = useQueryClient();
  const empty: Values = { AppId: apps.length === 1 ? apps[0].Id : '', Label: '', ExpiresOn: '', Count: 1 };
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: empty });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const mint = useMutation({
    mutationFn: (v: Values) =>
      api<MintAnswer>(`/api/app/${encodeURIComponent(v.AppId)}/invite-codes`, {
        method: 'POST',
        body: { Label: v.Label || null, ExpiresAt: v.ExpiresOn ? endOfDay(v.ExpiresOn).toISOString() : null, Count: v.Count },
      }),
    onSuccess: (answer, v) => {
      void queryClient.invalidateQueries({ queryKey: inviteKeys.all });
      form.reset({ ...empty, AppId: v.AppId });
      onMinted(
        mintedCodes(answer),
        apps.find((a) => a.Id === v.AppId)!,
      );
    },
    onError: (e) => report(e),
  });
  const errors = form.formState.errors;
  return (
    <form
      className="card"
      noValidate
      aria-label="New invite codes"
      onSubmit={form.handleSubmit((v) => {
        clear();
        mint.mutate(v);
      })}
    >
      <div className="card-header">
        <h2>New invite codes</h2>
      </div>
      <div className="card-body">
        <fieldset className="fieldset form">
          <ErrorSummary summary={summary} ref={summaryRef} />
          <div className="form-grid">
            <SelectField
              label="Application"
              registration={form.register('AppId')}
              error={errors.AppId?.message}
              hint="The application people sign up to with the code."
            >
              <option value="">Choose…</option>
              {apps.map((a) => (
                <option key={a.Id} value={a.Id}>
                  {a.DisplayName}
                </option>
              ))}
            </SelectField>
            <TextField label="Label" optional registration={form.register('Label')} error={errors.Label?.message} hint="Who or what the codes are for." />
            <TextField
              label="Valid until"
              optional
              type="date"
              registration={form.register('ExpiresOn')}
              error={errors.ExpiresOn?.message}
              hint="To the end of that day, your time. Empty: no expiry."
            />
            <TextField
              label="How many"
              type="number"
              inputMode="numeric"
              registration={form.register('Count', { valueAsNumber: true })}
              error={errors.Count?.message}
              hint="Each code signs up one person. At most 100."
            />
          </div>
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={mint.isPending} busyLabel="Minting…">
              Mint codes
            </Button>
          </div>
        </fieldset>
      </div>
    </form>
  );
}
