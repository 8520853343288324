'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { QueryState } from '@/components/ui/query-state';
import type { platformRetentionSchema } from '@/lib/domain/platform-settings/schema';
import { settingRules } from '@/lib/domain/realm-settings/schema';
import type { WireOf } from '@/lib/http/wire';

type Retention = WireOf<typeof platformRetentionSchema>;
const retentionKey = ['platform-audit', 'retention'] as const;
const form = z.object({ PlatformAuditDays: settingRules.retentionDays });
type Values = z.infer<typeof form>;

/**
 * How long the platform audit keeps its entries (GET/PUT /api/admin/platform-audit/retention). Those
 * who may read the audit see it; platform administrators (realm:admin of the control plane) change it.
 */
export function PlatformRetention({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const retention = useQuery({ queryKey: retentionKey, queryFn: ({ signal }) => api<Retention>('/api/admin/platform-audit/retention', { signal }) });
  const f = useForm<Values>({ resolver: zodResolver(form), defaultValues: { PlatformAuditDays: 365 } });
  const { summary, summaryRef, report, clear } = useProblem(f.setError, ['PlatformAuditDays']);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (retention.data && !f.formState.isDirty) f.reset(retention.data);
  }, [retention.data, f]);
  const save = useMutation({
    mutationFn: (v: Values) => api<Retention>('/api/admin/platform-audit/retention', { method: 'PUT', body: v }),
    onSuccess: (r) => {
      queryClient.setQueryData(retentionKey, r);
      f.reset(r);
      setSaved(true);
    },
    onError: (e) => report(e),
  });
  return (
    <section className="card" aria-labelledby="retention-heading">
      <div className="card-header">
        <h2 id="retention-heading">Retention</h2>
      </div>
      <div className="card-body stack">
        <QueryState isPending={retention.isPending} error={retention.error} onRetry={() => retention.refetch()}>
          {retention.data && !canEdit ? <p>Entries are kept {retention.data.PlatformAuditDays} days; a background job deletes older ones.</p> : null}
          {retention.data && canEdit ? (
            <form
              className="form stack"
              noValidate
              aria-label="Platform audit retention"
              onSubmit={f.handleSubmit((v) => {
                clear();
                setSaved(false);
                save.mutate(v);
              })}
            >
              <ErrorSummary summary={summary} ref={summaryRef} />
              {saved && !f.formState.isDirty ? <Alert tone="success" title="Retention saved. The next purge applies it." /> : null}
              <TextField
                label="Keep entries for (days)"
                type="number"
                inputMode="numeric"
                registration={f.register('PlatformAuditDays', { valueAsNumber: true })}
                error={f.formState.errors.PlatformAuditDays?.message}
                hint="Between 1 and 3650 days. A background job deletes older entries; nothing else removes them. Default: 365."
              />
              <div className="form-actions">
                <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…" disabled={!f.formState.isDirty}>
                  Save retention
                </Button>
              </div>
            </form>
          ) : null}
        </QueryState>
      </div>
    </section>
  );
}
