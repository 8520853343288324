'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { api, ApiError, problemMessage } from '@/components/data/api';
import { saveJsonFrom } from '@/components/data/save-json';
import { SecretOnce } from '@/components/console/secret-once';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PlanView } from './plan-view';
import { parseManifestText, pointerErrors, type ApplyResult } from './types';

// Configuration as code for this realm (spec 4.8 realm-config): download the export, upload or
// paste a manifest, preview what applying it would do (a dry run), then apply it after a
// confirmation. Prune is an explicit choice, off until ticked, and a new preview is made when it
// changes: what Apply does is always what the last preview showed. New confidential clients'
// secrets are shown once.

const BASE = '/api/admin/realm-config';

type Planned = { manifest: unknown; prune: boolean; result: ApplyResult };

function applyPath(prune: boolean, dryRun: boolean): string {
  const q = new URLSearchParams();
  if (prune) q.set('prune', 'true');
  if (dryRun) q.set('dryRun', 'true');
  const s = q.toString();
  return `${BASE}/apply${s ? `?${s}` : ''}`;
}

export function ConfigurationPage({ realmSlug }: { realmSlug: string }) {
  const queryClient = useQueryClient();
  const ids = { text: useId(), file: useId(), prune: useId() };
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [prune, setPrune] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const [planned, setPlanned] = useState<Planned | null>(null);
  const [applied, setApplied] = useState<ApplyResult | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Each change of the manifest or of prune starts a new generation: a preview answered after a
  // change is for a manifest no longer on screen, and is dropped.
  const generation = useRef(0);

  const download = useMutation({ mutationFn: () => saveJsonFrom(`${BASE}/export`, `${realmSlug}.manifest.json`) });

  const preview = useMutation({
    mutationFn: async (v: { manifest: unknown; prune: boolean; generation: number }) => ({
      ...v,
      result: await api<ApplyResult>(applyPath(v.prune, true), { method: 'POST', body: v.manifest }),
    }),
    onSuccess: (p) => {
      if (p.generation === generation.current) setPlanned(p);
    },
  });

  const apply = useMutation({
    mutationFn: (p: Planned) => api<ApplyResult>(applyPath(p.prune, false), { method: 'POST', body: p.manifest }),
    onSuccess: (result) => {
      setConfirming(false);
      setPlanned(null);
      setApplied(result);
      // Every list of the console may have changed.
      void queryClient.invalidateQueries();
    },
  });

  /** A changed manifest or prune choice makes the last plan stale. */
  const reset = () => {
    generation.current++;
    setPlanned(null);
    setApplied(null);
    setInputError(null);
    preview.reset();
    apply.reset();
  };

  const runPreview = (pruneNow: boolean) => {
    reset();
    const parsed = parseManifestText(text);
    if (!parsed.ok) {
      setInputError(parsed.error);
      return;
    }
    preview.mutate({ manifest: parsed.value, prune: pruneNow, generation: generation.current });
  };

  const readFile = async (file: File | undefined) => {
    reset();
    if (!file) return;
    setFileName(file.name);
    setText(await file.text());
  };

  const planError = preview.error ?? apply.error;
  const errorLines = planError instanceof ApiError ? pointerErrors(planError.problem.errors) : [];
  const changes = planned ? planned.result.Created.length + planned.result.Updated.length + planned.result.Deleted.length : 0;

  return (
    <div className="stack">
      <section className="card" aria-labelledby="export-heading">
        <div className="card-header">
          <h2 id="export-heading">Export</h2>
        </div>
        <div className="card-body stack">
          <p className="muted">
            The realm&apos;s structure as a manifest: settings, Apps, roles, groups, OAuth scopes, APIs and clients, login providers and service accounts, each
            by its name. No users, secrets or ids.
          </p>
          <p>
            <Button busy={download.isPending} busyLabel="Preparing…" onClick={() => download.mutate()}>
              Download the export
            </Button>
          </p>
          {download.isError ? <Alert tone="danger" title={`The export could not be downloaded. ${problemMessage(download.error)}`} /> : null}
        </div>
      </section>

      <section className="card" aria-labelledby="apply-heading">
        <div className="card-header">
          <h2 id="apply-heading">Apply a manifest</h2>
        </div>
        <div className="card-body form">
          <div className="field">
            <label className="field-label" htmlFor={ids.file}>
              Upload a manifest
            </label>
            <input
              id={ids.file}
              type="file"
              className="input"
              accept=".json,application/json"
              aria-describedby={`${ids.file}-hint`}
              onChange={(e) => void readFile(e.currentTarget.files?.[0])}
            />
            <p className="field-hint" id={`${ids.file}-hint`}>
              {fileName ? `Read from ${fileName}; you can still edit it below.` : 'A JSON file, such as an export of this or another realm.'}
            </p>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.text}>
              Manifest JSON
            </label>
            <textarea
              id={ids.text}
              className="textarea mono small"
              rows={12}
              spellCheck={false}
              aria-describedby={`${ids.text}-hint`}
              value={text}
              onChange={(e) => {
                reset();
                setText(e.currentTarget.value);
              }}
            />
            <p className="field-hint" id={`${ids.text}-hint`}>
              Or paste it here.
            </p>
          </div>
          <label className="checkbox" htmlFor={ids.prune}>
            <input
              id={ids.prune}
              type="checkbox"
              aria-describedby={`${ids.prune}-hint`}
              checked={prune}
              onChange={(e) => {
                const next = e.currentTarget.checked;
                setPrune(next);
                // A plan on screen is made again for the new choice.
                if (planned || preview.isError) runPreview(next);
                else reset();
              }}
            />
            <span>
              <span>Delete what the manifest does not name (prune)</span>
              <span className="field-hint block" id={`${ids.prune}-hint`}>
                Off: the manifest is merged in and nothing else is touched. On: items of the realm the manifest leaves out are deleted too (the built-in ones
                are kept).
              </span>
            </span>
          </label>
          {inputError ? <Alert tone="danger" title={inputError} /> : null}
          {planError ? (
            <Alert tone="danger" title={problemMessage(planError)}>
              {errorLines.length ? (
                <ul data-testid="manifest-errors">
                  {errorLines.map((e) => (
                    <li key={e.pointer}>
                      <code>{e.pointer}</code>: {e.message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </Alert>
          ) : null}
          <div className="form-actions">
            <Button variant={planned ? 'secondary' : 'primary'} busy={preview.isPending} busyLabel="Planning…" onClick={() => runPreview(prune)}>
              Preview
            </Button>
          </div>
        </div>
      </section>

      {planned ? (
        <section className="card" aria-labelledby="plan-heading">
          <div className="card-header">
            <h2 id="plan-heading">Plan{planned.prune ? ' (with prune)' : ''}</h2>
          </div>
          <div className="card-body stack">
            <PlanView result={planned.result} applied={false} />
          </div>
          <div className="card-footer form-actions">
            <Button variant="primary" disabled={changes === 0} onClick={() => setConfirming(true)}>
              Apply
            </Button>
          </div>
        </section>
      ) : null}

      {applied ? (
        <section className="card" aria-labelledby="applied-heading">
          <div className="card-header">
            <h2 id="applied-heading">Applied</h2>
          </div>
          <div className="card-body stack">
            <Alert tone="success" title="The manifest was applied." />
            <PlanView result={applied} applied />
          </div>
        </section>
      ) : null}
      {applied?.ClientSecrets?.map((s) => (
        <SecretOnce key={s.ClientId} clientId={s.ClientId} secret={s.ClientSecret} title={`Copy the secret of the new client ${s.ClientId} now`} />
      ))}

      <ConfirmDialog
        open={confirming && planned !== null}
        onClose={() => {
          setConfirming(false);
          apply.reset();
        }}
        onConfirm={() => planned && apply.mutate(planned)}
        title="Apply this manifest?"
        confirmLabel="Apply"
        busyLabel="Applying…"
        busy={apply.isPending}
        error={apply.isError ? problemMessage(apply.error) : null}
        tone={planned?.result.Deleted.length ? 'danger' : 'primary'}
      >
        {planned ? (
          <p>
            {planned.result.Created.length} created, {planned.result.Updated.length} updated and {planned.result.Deleted.length} deleted, in one step: if any
            item fails, nothing changes.
            {planned.result.Deleted.length ? ' Deleted items cannot be brought back.' : ''}
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
