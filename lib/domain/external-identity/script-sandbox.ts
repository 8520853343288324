import { DefaultIntrinsics, newQuickJSWASMModule, shouldInterruptAfterDeadline } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import { shared } from '@/lib/runtime/shared';

// The sandbox a login provider's UserUpdateScript runs in (CONTRACT.md "External identity": no I/O,
// no clock, bounded time and memory). QuickJS compiled to WebAssembly: the guest sees only the
// language's built-ins, never a host object or function; what it is given and what it gives back are
// JSON strings. Every run gets a fresh runtime and context, disposed afterwards, inside one WebAssembly
// module loaded once. This file knows QuickJS; user-update-script.ts knows what the result means.

export const SCRIPT_TIME_LIMIT_MS = 100;
export const SCRIPT_MEMORY_LIMIT_BYTES = 16 * 1024 * 1024;
/** The runner refuses to hand back a result whose JSON is longer than this. */
export const SCRIPT_RESULT_MAX_LENGTH = 64 * 1024;
// QuickJS's own stack limit, counted in the module's linear memory. The interpreter's WebAssembly
// frames also use Node's native stack, several times as much, so a limit near Node's ~1 MB stack lets
// deep recursion overflow the host first (measured: 512 KiB does; 128 KiB allows ~740 plain frames and
// stays inside). Some paths (the parser on deeply nested literals) can still overflow the host's stack
// first: that case is caught below and the module replaced.
const STACK_LIMIT_BYTES = 128 * 1024;

const SCRIPT_FILE = 'user-update-script.js';
/** A stack frame in the script's file: `(user-update-script.js:3:16)`. */
const SCRIPT_FRAME = /user-update-script\.js:(\d+)/;
/** How much of a thrown message is read back (reasons quote at most 300 characters of it). */
const THROWN_TEXT_MAX_LENGTH = 1000;

export type GuestFailure =
  | { kind: 'timeout' }
  | { kind: 'memory' }
  | { kind: 'stack' }
  | { kind: 'threw'; message: string }
  /** Our side failed (the WebAssembly module could not load or broke); `name` is the host error's class. */
  | { kind: 'sandbox'; name: string };

export type SandboxResult = { kind: 'compiled' } | { kind: 'ok'; envelope: string } | { kind: 'failed'; phase: 'compile' | 'run'; failure: GuestFailure };

// Defined before the script is compiled, so the script cannot replace the built-ins they rely on.
// It removes Math.random, whose seed is the time of day in QuickJS (a clock), and returns two
// functions. `run` parses the inputs, calls the script and answers one JSON envelope, the only thing
// that leaves: {"none":true} | {"result":<object>} | {"refused":"<what it returned>"} | {"tooLarge":<length>}.
// `describe` turns whatever the script threw into {"name","message","fileName","lineNumber","stack"} (strings
// trimmed), so the host reads a string and never a guest object's properties (getters, proxies).
const PRELUDE = `(() => {
  'use strict';
  Math.random = function random() { throw new TypeError('Math.random is not available to a UserUpdateScript'); };
  const parse = JSON.parse, stringify = JSON.stringify, getPrototypeOf = Object.getPrototypeOf, isArray = Array.isArray;
  const plain = Object.prototype, apply = Reflect.apply, stringSlice = String.prototype.slice;
  const text = (value, max) => (typeof value === 'string' ? apply(stringSlice, value, [0, max]) : undefined);
  function run(script, claimsJson, userJson) {
    if (typeof script !== 'function') return stringify({ refused: 'something other than a function body' });
    const result = script(parse(claimsJson), parse(userJson));
    if (result === undefined || result === null) return '{"none":true}';
    if (typeof result !== 'object') return stringify({ refused: 'a ' + typeof result });
    if (isArray(result)) return '{"refused":"an array"}';
    const proto = getPrototypeOf(result);
    if (proto !== plain && proto !== null) return '{"refused":"an object that is not a plain object"}';
    const json = stringify(result);
    if (typeof json !== 'string') return '{"refused":"an object with no JSON form"}';
    if (json.length > ${SCRIPT_RESULT_MAX_LENGTH}) return stringify({ tooLarge: json.length });
    return '{"result":' + json + '}';
  }
  function describe(thrown) {
    if (typeof thrown === 'string') return stringify({ message: text(thrown, ${THROWN_TEXT_MAX_LENGTH}) });
    if (thrown === null || typeof thrown !== 'object') return stringify({ message: 'a thrown ' + (thrown === null ? 'null' : typeof thrown) });
    try {
      const name = thrown.name, message = thrown.message, fileName = thrown.fileName, lineNumber = thrown.lineNumber, stack = thrown.stack;
      return stringify({
        name: text(name, 100),
        message: text(message, ${THROWN_TEXT_MAX_LENGTH}),
        fileName: text(fileName, 200),
        lineNumber: typeof lineNumber === 'number' ? lineNumber : undefined,
        stack: text(stack, 2000),
      });
    } catch (_) {
      return '{}';
    }
  }
  return { run, describe };
})()`;

type ModuleCache = { loading: Promise<QuickJSWASMModule> | undefined; broken: WeakSet<QuickJSWASMModule> };

// One module per process (lib/runtime/shared.ts: Next's bundles and server.ts share it). Not
// getQuickJS()'s singleton: a module whose interpreter overflowed the host's stack mid-call is left
// inconsistent (freeing its runtime aborts), so it is dropped and the next run loads a fresh one.
const moduleCache = () => shared<ModuleCache>('quickjs.user-update-script', () => ({ loading: undefined, broken: new WeakSet() }));

async function sandboxModule(): Promise<QuickJSWASMModule> {
  const cache = moduleCache();
  for (;;) {
    const loading = (cache.loading ??= newQuickJSWASMModule().catch((error: unknown) => {
      if (cache.loading === loading) cache.loading = undefined;
      throw error;
    }));
    const module = await loading;
    if (!cache.broken.has(module)) return module;
    if (cache.loading === loading) cache.loading = undefined;
  }
}

function markBroken(module: QuickJSWASMModule): void {
  const cache = moduleCache();
  cache.broken.add(module);
  void cache.loading?.then((current) => {
    if (current === module) cache.loading = undefined;
  });
}

/**
 * Compiles `body` as the body of `function (claims, user)` and, given `input`, runs it on the parsed
 * inputs. Without `input` it only compiles (the admin API's check). Never throws.
 */
export async function runInSandbox(body: string, input?: { claimsJson: string; userJson: string }): Promise<SandboxResult> {
  let module: QuickJSWASMModule;
  try {
    module = await sandboxModule();
  } catch (error) {
    return { kind: 'failed', phase: 'compile', failure: { kind: 'sandbox', name: errorName(error) } };
  }
  // From here on everything is synchronous: one run at a time per process, lasting at most the time
  // limit plus the set-up (the interpreter polls the interrupt handler, also inside RegExp matching).
  let phase: 'compile' | 'run' = 'compile';
  const runtime = module.newRuntime();
  let context: QuickJSContext | undefined;
  const handles: QuickJSHandle[] = [];
  let healthy = true;
  try {
    runtime.setMemoryLimit(SCRIPT_MEMORY_LIMIT_BYTES);
    runtime.setMaxStackSize(STACK_LIMIT_BYTES);
    let interrupted = false;
    const pastDeadline = shouldInterruptAfterDeadline(Date.now() + SCRIPT_TIME_LIMIT_MS);
    runtime.setInterruptHandler((rt) => (interrupted ||= pastDeadline(rt) === true));
    // No Date at all: neither Date.now() nor new Date() can tell the time.
    context = runtime.newContext({ intrinsics: { ...DefaultIntrinsics, Date: false } });
    const ctx = context;
    const keep = (handle: QuickJSHandle) => (handles.push(handle), handle);

    const prelude = ctx.evalCode(PRELUDE, 'user-update-script-runner.js', { type: 'global', strict: true });
    if (prelude.error) {
      keep(prelude.error);
      return { kind: 'failed', phase, failure: { kind: 'sandbox', name: 'prelude' } };
    }
    const helpers = keep(prelude.value);
    const runner = keep(ctx.getProp(helpers, 'run'));
    const describer = keep(ctx.getProp(helpers, 'describe'));
    const failed = (error: QuickJSHandle): SandboxResult => {
      keep(error);
      if (interrupted) return { kind: 'failed', phase, failure: { kind: 'timeout' } };
      const described = ctx.callFunction(describer, ctx.undefined, error);
      if (described.error) {
        keep(described.error);
        return { kind: 'failed', phase, failure: interrupted ? { kind: 'timeout' } : { kind: 'threw', message: 'an error that could not be read' } };
      }
      const description = keep(described.value);
      return { kind: 'failed', phase, failure: classifyThrown(ctx.typeof(description) === 'string' ? ctx.getString(description) : '{}', lineCount(body)) };
    };
    // A line break after the body keeps a `//` comment on its last line from swallowing the brace;
    // line numbers in messages are shifted back by the one line added in front.
    const compiled = ctx.evalCode(`(function (claims, user) {\n${body}\n})`, SCRIPT_FILE, { type: 'global' });
    if (compiled.error) return failed(compiled.error);
    const script = keep(compiled.value);
    if (!input) return { kind: 'compiled' };

    phase = 'run';
    const claims = keep(ctx.newString(input.claimsJson));
    const user = keep(ctx.newString(input.userJson));
    const outcome = ctx.callFunction(runner, ctx.undefined, script, claims, user);
    if (outcome.error) return failed(outcome.error);
    const envelope = keep(outcome.value);
    if (ctx.typeof(envelope) !== 'string') return { kind: 'failed', phase, failure: { kind: 'sandbox', name: 'envelope' } };
    return { kind: 'ok', envelope: ctx.getString(envelope) };
  } catch (error) {
    // The host's side failed mid-call, typically Node's stack overflowing inside the interpreter's
    // WebAssembly frames. The module's state is unknown now: it is never touched again.
    healthy = false;
    markBroken(module);
    return { kind: 'failed', phase, failure: error instanceof RangeError ? { kind: 'stack' } : { kind: 'sandbox', name: errorName(error) } };
  } finally {
    if (healthy) {
      try {
        for (const handle of handles.reverse()) handle.dispose();
        context?.dispose();
        runtime.dispose();
      } catch {
        markBroken(module);
      }
    }
  }
}

type ThrownDescription = { name?: unknown; message?: unknown; fileName?: unknown; lineNumber?: unknown; stack?: unknown };

/** Sorts what the guest threw (as `describe` wrote it): the engine's limits, or the script's own error. */
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

function lineCount(text: string): number {
  return text.split('\n').length;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
