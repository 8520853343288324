'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { buttonClass } from '@/components/ui/button';
import { SecretOnce } from '../secret-once';
import type { CreatedClient } from '../oauth-types';
import { ClientForm } from './client-form';
import type { ClientIntentOptions } from './client-intent-fields';

/**
 * The create page. A confidential client's secret comes back only in the create answer, so the
 * page stays put and shows it instead of moving on; a public client goes straight to its page.
 */
export function NewClient({ canReadScopes, intents, presetPositionId }: { canReadScopes: boolean; intents?: ClientIntentOptions; presetPositionId?: string }) {
  const router = useRouter();
  const [created, setCreated] = useState<{ client: CreatedClient; secret: string } | null>(null);
  if (created) {
    const href = `/console/oauth/clients/${encodeURIComponent(created.client.Id)}`;
    return (
      <SecretOnce
        title={`Client “${created.client.DisplayName}” created. Copy its secret now`}
        clientId={created.client.ClientId}
        secret={created.secret}
        actions={
          <Link href={href} className={buttonClass('primary')}>
            I have stored the secret, continue
          </Link>
        }
      />
    );
  }
  return (
    <ClientForm
      canWrite
      canReadScopes={canReadScopes}
      intents={intents}
      presetPositionId={presetPositionId}
      onSaved={(c) => {
        if (c.ClientSecret) setCreated({ client: c, secret: c.ClientSecret });
        else router.push(`/console/oauth/clients/${encodeURIComponent(c.Id)}`);
      }}
    />
  );
}
