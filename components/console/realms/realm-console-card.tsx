'use client';
import { useMutation } from '@tanstack/react-query';
import { problemMessage } from '@/components/data/api';
import { saveJsonFrom } from '@/components/data/save-json';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { originOf, type PublicBase } from '@/lib/web/public-origin';
import type { Realm } from './types';

/**
 * The realm's own console, and its structure as a manifest (spec 4.8 export). Sessions belong to one
 * realm and there is no single sign-on across realms: the realm's console asks for an account of
 * that realm, on a sign-in page that names it.
 */
export function RealmConsoleCard({ realm, publicBase }: { realm: Realm; publicBase: PublicBase }) {
  const download = useMutation({
    mutationFn: () => saveJsonFrom(`/api/admin/realms/${encodeURIComponent(realm.Slug)}/export`, `${realm.Slug}.manifest.json`),
  });
  const consoleUrl = `${originOf(publicBase, realm.PrimaryDomain)}/console`;
  return (
    <section className="card" aria-labelledby="realm-console-heading">
      <div className="card-header">
        <h2 id="realm-console-heading">Console and manifest</h2>
      </div>
      <div className="card-body stack">
        {realm.IsActive ? (
          <>
            <p className="muted">
              The realm has a console of its own at its address. You sign in there with an account of “{realm.DisplayName}”: this console&apos;s sign-in does
              not carry over, and the realm&apos;s sign-in page names the realm.
            </p>
            <p>
              <a className="btn" href={consoleUrl} target="_blank" rel="noopener noreferrer">
                Open this realm&apos;s console
              </a>
            </p>
          </>
        ) : (
          <p className="muted">The realm is switched off: its console answers again once it is activated.</p>
        )}
        <p className="muted">
          The manifest is the realm&apos;s structure (settings, Apps, roles, groups, OAuth scopes, APIs and clients, login providers, service accounts) without
          users, secrets or ids.
        </p>
        <p>
          <Button busy={download.isPending} busyLabel="Preparing…" onClick={() => download.mutate()}>
            Download manifest
          </Button>
        </p>
        {download.isError ? <Alert tone="danger" title={`The manifest could not be downloaded. ${problemMessage(download.error)}`} /> : null}
      </div>
    </section>
  );
}
