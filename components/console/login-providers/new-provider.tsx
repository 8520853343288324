'use client';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api } from '@/components/data/api';
import { QueryState } from '@/components/ui/query-state';
import { ProviderForm } from './provider-form';
import { FLAVOR_HINTS, FLAVOR_LABELS, providerKeys, type ExternalFlavor, type FlavorInfo } from './provider-types';

/**
 * The create page: choose a flavor (GET /flavors; one this server cannot run is shown disabled with
 * its reason), then its form. The secret is set on the provider's page once it exists.
 */
export function NewProvider({ canReadGroups }: { canReadGroups: boolean }) {
  const router = useRouter();
  const flavors = useQuery({ queryKey: providerKeys.flavors, queryFn: ({ signal }) => api<FlavorInfo[]>('/api/admin/login-providers/flavors', { signal }) });
  const [flavor, setFlavor] = useState<ExternalFlavor | null>(null);
  return (
    <div className="stack">
      <QueryState isPending={flavors.isPending} error={flavors.error} onRetry={() => flavors.refetch()}>
        <section className="card" aria-label="Choose a flavor">
          <div className="card-body">
            <fieldset className="fieldset">
              <legend>Flavor</legend>
              <div className="checkbox-list">
                {flavors.data?.map((f) => (
                  <label key={f.Flavor} className="checkbox">
                    <input
                      type="radio"
                      name="flavor"
                      value={f.Flavor}
                      checked={flavor === f.Flavor}
                      disabled={!f.Available}
                      onChange={() => setFlavor(f.Flavor)}
                    />
                    <span>
                      <span>{FLAVOR_LABELS[f.Flavor]}</span>
                      <span className="field-hint block">
                        {f.Available ? FLAVOR_HINTS[f.Flavor] : `Not available on this server: ${f.Reason ?? 'no reason given'}`}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          </div>
        </section>
      </QueryState>
      {flavor ? (
        <ProviderForm
          key={flavor}
          flavor={flavor}
          canWrite
          canReadGroups={canReadGroups}
          onSaved={(p) => router.push(`/console/login-providers/${encodeURIComponent(p.Id)}?created=1`)}
        />
      ) : null}
    </div>
  );
}
