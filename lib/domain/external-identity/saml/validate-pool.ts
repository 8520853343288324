import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { shared } from '../../../runtime/shared';
import type { ScanRefusal } from './response-scan';
import type { SamlOptions } from './sp-config';

// A small pool of worker threads that run validate-worker.mjs: the full decode and scan, then
// node-saml's parse and signature check, of a response that passed the cheap checks (validate-post.ts). One job per worker at a time,
// started on first use, at most one thread fewer than the cores (at least one); the queue is bounded
// in practice by the ACS's rate limits (docs/rate-limits.md, `saml-acs-failure`). Idle workers do not
// keep the process alive. Shared by server.ts and Next's bundles (lib/runtime/shared.ts).

// Resolved from the working directory, as the script sandbox's worker is (script-sandbox.ts): the
// server runs from the repository root, and neither bundler may follow this path.
const WORKER_FILE = resolve(/* turbopackIgnore: true */ process.cwd(), 'lib/domain/external-identity/saml/validate-worker.mjs');
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Far above what a response within the limits costs (tens of ms): only a wedged worker gets here. */
const DEADLINE_MS = 10_000;

/** Why the worker refused a response before parsing it: the scan's reasons, or what comes before the scan. */
export type PreParseRefusal = { problem: ScanRefusal['problem'] | 'not-base64' | 'too-large'; detail: string };
export type WorkerVerdict = { refused: PreParseRefusal } | { assertionXml: string | null } | { error: { status: boolean; message: string } };

type Job = { options: SamlOptions; SAMLResponse: string; requestId: string; done: (v: WorkerVerdict) => void; fail: (e: Error) => void };
type Slot = { worker: Worker; ready: Promise<void> };
type Pool = { idle: Slot[]; running: number; queue: Job[]; nextId: number };

const pool = () => shared<Pool>('saml-validate-pool', () => ({ idle: [], running: 0, queue: [], nextId: 1 }));

/** node-saml's verdict on `SAMLResponse`, whose request id `requestId` was taken by the caller. */
export function validateInWorker(options: SamlOptions, SAMLResponse: string, requestId: string): Promise<WorkerVerdict> {
  return new Promise((done, fail) => {
    const p = pool();
    p.queue.push({ options, SAMLResponse, requestId, done, fail });
    pump(p);
  });
}

function pump(p: Pool): void {
  while (p.queue.length && (p.idle.length || p.running < POOL_SIZE)) {
    const job = p.queue.shift()!;
    const slot = p.idle.pop() ?? startWorker();
    p.running++;
    void runJob(p, slot, job);
  }
}

async function runJob(p: Pool, slot: Slot, job: Job): Promise<void> {
  let healthy = true;
  try {
    await slot.ready;
  } catch (e) {
    // The worker could not start: our fault, not the response's.
    p.running--;
    job.fail(e instanceof Error ? e : new Error(String(e)));
    pump(p);
    return;
  }
  slot.worker.ref();
  const verdict = await new Promise<WorkerVerdict>((settle) => {
    const id = p.nextId++;
    const finish = (v: WorkerVerdict) => {
      clearTimeout(timer);
      slot.worker.off('message', onMessage);
      slot.worker.off('exit', onExit);
      settle(v);
    };
    const onMessage = (m: { id?: number; refused?: PreParseRefusal; error?: { status: boolean; message: string }; assertionXml?: string | null }) => {
      if (m.id !== id) return;
      finish(m.refused ? { refused: m.refused } : m.error ? { error: m.error } : { assertionXml: m.assertionXml ?? null });
    };
    const onExit = () => {
      healthy = false;
      finish({ error: { status: false, message: 'the SAML worker ended while checking the response' } });
    };
    const timer = setTimeout(() => {
      healthy = false;
      void slot.worker.terminate();
      finish({ error: { status: false, message: `the check took longer than ${DEADLINE_MS} ms` } });
    }, DEADLINE_MS);
    slot.worker.on('message', onMessage);
    slot.worker.once('exit', onExit);
    slot.worker.postMessage({ id, options: job.options, SAMLResponse: job.SAMLResponse, requestId: job.requestId });
  });
  p.running--;
  if (healthy) {
    slot.worker.unref();
    p.idle.push(slot);
  }
  job.done(verdict);
  pump(p);
}

function startWorker(): Slot {
  // The heap a response within the limits needs is a few MiB; these bound a pathological one.
  const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 } });
  const ready = new Promise<void>((resolveReady, reject) => {
    worker.once('message', () => resolveReady());
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('the SAML worker ended while starting')));
  });
  ready.catch(() => undefined);
  // An 'error' event without a listener would throw in the server; the job waiting on it sees 'exit'.
  worker.on('error', () => undefined);
  return { worker, ready };
}
