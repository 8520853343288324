import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { shared } from '@/lib/runtime/shared';

// The sandbox a login provider's UserUpdateScript runs in (CONTRACT.md "External identity": no I/O,
// no clock, bounded time and memory): QuickJS compiled to WebAssembly, in a worker thread
// (script-worker.mjs) that gives every run a fresh runtime and context. Two time limits: QuickJS's
// interrupt handler stops ordinary loops at SCRIPT_TIME_LIMIT_MS, but it is polled only every few
// thousand bytecode branches, so a loop around an expensive built-in (`for (;;) "x".repeat(1e7)`)
// runs for minutes between polls (measured). The worker is therefore killed at HARD_DEADLINE_MS and
// replaced; that also keeps the server's event loop free while a script runs. This file is the host's
// side: the worker, the deadline, and what a failure means.

export const SCRIPT_TIME_LIMIT_MS = 100;
export const SCRIPT_MEMORY_LIMIT_BYTES = 16 * 1024 * 1024;
/** The runner refuses to hand back a result whose JSON is longer than this. */
export const SCRIPT_RESULT_MAX_LENGTH = 64 * 1024;
const HARD_DEADLINE_MS = SCRIPT_TIME_LIMIT_MS + 400;
// QuickJS's own stack limit, counted in the module's linear memory. The interpreter's WebAssembly
// frames also use the thread's native stack, several times as much: 512 KiB overflowed Node's ~1 MB
// main-thread stack in a measurement, 128 KiB (~740 plain frames) did not. The worker has 4 MB.
const STACK_LIMIT_BYTES = 128 * 1024;
const SCRIPT_FILE = 'user-update-script.js';
/** A stack frame in the script's file: `(user-update-script.js:3:16)`. */
const SCRIPT_FRAME = /user-update-script\.js:(\d+)/;
/** How much of a thrown message is read back (reasons quote at most 300 characters of it). */
const THROWN_TEXT_MAX_LENGTH = 1000;

// Plain JavaScript loaded by Node from the project folder, which the server runs in (server.ts hands
// Next the same process.cwd()), so it is found whether this module runs from source or a bundle.
const WORKER_FILE = resolve(/* turbopackIgnore: true */ process.cwd(), 'lib/domain/external-identity/script-worker.mjs');

export type GuestFailure =
  | { kind: 'timeout' }
  | { kind: 'memory' }
  | { kind: 'stack' }
  | { kind: 'threw'; message: string }
  /** Our side failed (the worker could not start or broke); `name` says what broke. */
  | { kind: 'sandbox'; name: string };

type Phase = 'compile' | 'run';
export type SandboxResult = { kind: 'compiled' } | { kind: 'ok'; envelope: string } | { kind: 'failed'; phase: Phase; failure: GuestFailure };

/** What script-worker.mjs answers. */
type WorkerResult =
  | { kind: 'compiled' }
  | { kind: 'ok'; envelope: string }
  | { kind: 'thrown'; phase: Phase; interrupted: boolean; description?: string }
  | { kind: 'broken'; phase: Phase; name: string };

type SandboxWorker = { worker: Worker; ready: Promise<void> };
// One worker per process (lib/runtime/shared.ts: Next's bundles and server.ts share it); runs queue on
// `chain`, one at a time, as QuickJS in the worker is synchronous anyway.
type SandboxState = { current: SandboxWorker | undefined; chain: Promise<unknown>; nextId: number };
const sandboxState = () => shared<SandboxState>('user-update-script.sandbox', () => ({ current: undefined, chain: Promise.resolve(), nextId: 0 }));

/**
 * Compiles `body` as the body of `function (claims, user)` and, given `input`, runs it on the parsed
 * inputs. Without `input` it only compiles (the admin API's check). Never throws.
 */
export function runInSandbox(body: string, input?: { claimsJson: string; userJson: string }): Promise<SandboxResult> {
  const state = sandboxState();
  const run = state.chain.then(() => runOnWorker(state, body, input));
  state.chain = run.catch(() => undefined);
  return run.catch((error: unknown) => failed('compile', { kind: 'sandbox', name: errorName(error) }));
}

async function runOnWorker(state: SandboxState, body: string, input: { claimsJson: string; userJson: string } | undefined): Promise<SandboxResult> {
  const { worker, ready } = (state.current ??= startWorker(state));
  // Referenced only while a run waits on it, so an idle sandbox never keeps a process (the CLI) alive.
  worker.ref();
  try {
    await ready;
    return await askWorker(worker, state, body, input);
  } finally {
    worker.unref();
  }
}

function askWorker(worker: Worker, state: SandboxState, body: string, input: { claimsJson: string; userJson: string } | undefined): Promise<SandboxResult> {
  const id = ++state.nextId;
  return new Promise<SandboxResult>((settle) => {
    const done = (result: SandboxResult) => {
      clearTimeout(deadline);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      settle(result);
    };
    const onMessage = (message: { id?: number; result?: WorkerResult }) => {
      if (message.id === id && message.result) done(fromWorker(message.result, body));
    };
    const onExit = () => done(failed(input ? 'run' : 'compile', { kind: 'sandbox', name: 'the worker ended' }));
    const deadline = setTimeout(() => {
      // Stuck inside a built-in, out of the interrupt handler's reach: end the thread.
      retire(state, worker);
      done(failed(input ? 'run' : 'compile', { kind: 'timeout' }));
    }, HARD_DEADLINE_MS);
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    worker.postMessage({ id, body, input });
  });
}

function startWorker(state: SandboxState): SandboxWorker {
  const worker = new Worker(WORKER_FILE, {
    workerData: {
      timeLimitMs: SCRIPT_TIME_LIMIT_MS,
      memoryLimitBytes: SCRIPT_MEMORY_LIMIT_BYTES,
      stackLimitBytes: STACK_LIMIT_BYTES,
      resultMaxLength: SCRIPT_RESULT_MAX_LENGTH,
      thrownTextMaxLength: THROWN_TEXT_MAX_LENGTH,
      scriptFile: SCRIPT_FILE,
    },
    // The guest's memory is QuickJS's limit inside the WebAssembly memory; these bound the thread's own heap.
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  });
  const ready = new Promise<void>((resolveReady, reject) => {
    worker.once('message', () => resolveReady());
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('the sandbox worker ended while starting')));
  });
  ready.catch(() => undefined);
  // An 'error' event without a listener would throw in the server; the run waiting on it sees 'exit'.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    if (state.current?.worker === worker) state.current = undefined;
  });
  return { worker, ready };
}

function retire(state: SandboxState, worker: Worker): void {
  if (state.current?.worker === worker) state.current = undefined;
  void worker.terminate();
}

function fromWorker(result: WorkerResult, body: string): SandboxResult {
  switch (result.kind) {
    case 'compiled':
    case 'ok':
      return result;
    case 'thrown':
      if (result.interrupted) return failed(result.phase, { kind: 'timeout' });
      if (result.description === undefined) return failed(result.phase, { kind: 'threw', message: 'an error that could not be read' });
      return failed(result.phase, classifyThrown(result.description, body.split('\n').length));
    case 'broken':
      // The worker's own stack overflowed inside the interpreter: the script nested too deeply.
      return failed(result.phase, result.name === 'RangeError' ? { kind: 'stack' } : { kind: 'sandbox', name: result.name });
  }
}

type ThrownDescription = { name?: unknown; message?: unknown; fileName?: unknown; lineNumber?: unknown; stack?: unknown };

/** Sorts what the guest threw (as the worker's `describe` wrote it): the engine's limits, or the script's own error. */
function classifyThrown(json: string, lastLine: number): GuestFailure {
  let thrown: ThrownDescription;
  try {
    thrown = JSON.parse(json) as ThrownDescription;
  } catch {
    thrown = {};
  }
  const name = typeof thrown.name === 'string' ? thrown.name : undefined;
  const message = typeof thrown.message === 'string' ? thrown.message : undefined;
  if (name === 'InternalError' && message === 'out of memory') return { kind: 'memory' };
  if (message === 'stack overflow') return { kind: 'stack' };
  if (message === undefined) return { kind: 'threw', message: 'a thrown object that is not an Error' };
  const line = scriptLine(thrown, lastLine);
  const label = name === undefined ? message : `${name}: ${message}`;
  return { kind: 'threw', message: line === undefined ? label : `${label} (line ${line})` };
}

/** The line in the script's body: a syntax error's lineNumber, else the script's innermost frame in the stack. */
function scriptLine(thrown: ThrownDescription, lastLine: number): number | undefined {
  const fromStack = typeof thrown.stack === 'string' ? thrown.stack.match(SCRIPT_FRAME)?.[1] : undefined;
  const line =
    typeof thrown.lineNumber === 'number' && thrown.fileName === SCRIPT_FILE ? thrown.lineNumber : fromStack === undefined ? undefined : Number(fromStack);
  // One line was added in front of the body; an error on the closing line added after it (an
  // unclosed brace) is reported on the body's last line.
  return line === undefined || line < 2 ? undefined : Math.min(line - 1, lastLine);
}

function failed(phase: Phase, failure: GuestFailure): SandboxResult {
  return { kind: 'failed', phase, failure };
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
