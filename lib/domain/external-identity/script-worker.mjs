// @ts-check
// The worker thread that runs UserUpdateScripts (started by script-sandbox.ts, which also kills it
// when a run outlives its hard deadline). Plain JavaScript so Node loads it as is, wherever the
// server's own code was bundled. It holds one QuickJS WebAssembly module and gives every run a fresh
// runtime and context with the limits the host passes in `workerData`: the guest sees only the
// language's built-ins, never a host object or function; inputs and the result cross as JSON strings.
import { parentPort, workerData } from 'node:worker_threads';
import { DefaultIntrinsics, newQuickJSWASMModule, shouldInterruptAfterDeadline } from 'quickjs-emscripten';

/** @typedef {{ timeLimitMs: number; memoryLimitBytes: number; stackLimitBytes: number; resultMaxLength: number; thrownTextMaxLength: number; scriptFile: string }} Limits */
/** @typedef {{ id: number; body: string; input?: { claimsJson: string; userJson: string } }} Job */

const limits = /** @type {Limits} */ (workerData);

// Defined before the script is compiled, so the script cannot replace the built-ins they rely on.
// It removes Math.random, whose seed is the time of day in QuickJS (a clock), and returns two
// functions. `run` parses the inputs, calls the script and answers one JSON envelope, the only thing
// that leaves: {"none":true} | {"result":<object>} | {"refused":"<what it returned>"} | {"tooLarge":<length>}.
// `describe` turns whatever the script threw into {"name","message","fileName","lineNumber","stack"}
// (strings trimmed), so the host reads a string and never a guest object's properties (getters, proxies).
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
    if (json.length > ${limits.resultMaxLength}) return stringify({ tooLarge: json.length });
    return '{"result":' + json + '}';
  }
  function describe(thrown) {
    if (typeof thrown === 'string') return stringify({ message: text(thrown, ${limits.thrownTextMaxLength}) });
    if (thrown === null || typeof thrown !== 'object') return stringify({ message: 'a thrown ' + (thrown === null ? 'null' : typeof thrown) });
    try {
      const name = thrown.name, message = thrown.message, fileName = thrown.fileName, lineNumber = thrown.lineNumber, stack = thrown.stack;
      return stringify({
        name: text(name, 100),
        message: text(message, ${limits.thrownTextMaxLength}),
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

const module = await newQuickJSWASMModule();

/**
 * Compiles `body` as the body of `function (claims, user)` and, given `input`, runs it.
 * @param {Job} job
 */
function runJob({ body, input }) {
  /** @type {'compile' | 'run'} */
  let phase = 'compile';
  const runtime = module.newRuntime();
  /** @type {import('quickjs-emscripten').QuickJSContext | undefined} */
  let context;
  /** @type {import('quickjs-emscripten').QuickJSHandle[]} */
  const handles = [];
  /** @param {import('quickjs-emscripten').QuickJSHandle} handle */
  const keep = (handle) => (handles.push(handle), handle);
  try {
    runtime.setMemoryLimit(limits.memoryLimitBytes);
    runtime.setMaxStackSize(limits.stackLimitBytes);
    let interrupted = false;
    // No Date at all: neither Date.now() nor new Date() can tell the time.
    context = runtime.newContext({ intrinsics: { ...DefaultIntrinsics, Date: false } });
    const ctx = context;

    const prelude = ctx.evalCode(PRELUDE, 'user-update-script-runner.js', { type: 'global', strict: true });
    if (prelude.error) {
      keep(prelude.error);
      return { kind: 'broken', phase, name: 'prelude' };
    }
    // The time limit is the script's: it starts once our own prelude is in place. Started before it,
    // a worker kept off the CPU for the limit's length (a busy machine) interrupted the prelude and
    // answered "sandbox failed" for any script, however small.
    const pastDeadline = shouldInterruptAfterDeadline(Date.now() + limits.timeLimitMs);
    runtime.setInterruptHandler((rt) => (interrupted ||= pastDeadline(rt) === true));
    const helpers = keep(prelude.value);
    const runner = keep(ctx.getProp(helpers, 'run'));
    const describer = keep(ctx.getProp(helpers, 'describe'));
    /** @param {import('quickjs-emscripten').QuickJSHandle} error */
    const thrown = (error) => {
      keep(error);
      if (interrupted) return { kind: 'thrown', phase, interrupted };
      const described = ctx.callFunction(describer, ctx.undefined, error);
      if (described.error) return (keep(described.error), { kind: 'thrown', phase, interrupted });
      const description = keep(described.value);
      return { kind: 'thrown', phase, interrupted, description: ctx.typeof(description) === 'string' ? ctx.getString(description) : undefined };
    };

    // A line break after the body keeps a `//` comment on its last line from swallowing the brace;
    // the host shifts line numbers back by the one line added in front.
    const compiled = ctx.evalCode(`(function (claims, user) {\n${body}\n})`, limits.scriptFile, { type: 'global' });
    if (compiled.error) return thrown(compiled.error);
    const script = keep(compiled.value);
    if (!input) return { kind: 'compiled' };

    phase = 'run';
    const claims = keep(ctx.newString(input.claimsJson));
    const user = keep(ctx.newString(input.userJson));
    const outcome = ctx.callFunction(runner, ctx.undefined, script, claims, user);
    if (outcome.error) return thrown(outcome.error);
    const envelope = keep(outcome.value);
    if (ctx.typeof(envelope) !== 'string') return { kind: 'broken', phase, name: 'envelope' };
    return { kind: 'ok', envelope: ctx.getString(envelope) };
  } catch (error) {
    // Our side failed mid-call, typically Node's stack overflowing inside the interpreter's
    // WebAssembly frames (some paths, like the parser on deeply nested literals, use far more native
    // stack than QuickJS counts). The module's state is unknown: answer, then end this worker.
    context = undefined;
    handles.length = 0;
    throw Object.assign(new Error('broken'), { result: { kind: 'broken', phase, name: error instanceof Error ? error.name : typeof error } });
  } finally {
    if (context) {
      for (const handle of handles.reverse()) handle.dispose();
      context.dispose();
      runtime.dispose();
    }
  }
}

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
let broken = false;
port.on('message', (/** @type {Job} */ job) => {
  if (broken) return port.postMessage({ id: job.id, result: { kind: 'broken', phase: 'compile', name: 'ending' } });
  try {
    port.postMessage({ id: job.id, result: runJob(job) });
  } catch (error) {
    broken = true;
    port.postMessage({ id: job.id, result: /** @type {{ result?: unknown }} */ (error).result ?? { kind: 'broken', phase: 'compile', name: 'dispose' } });
    // After the answer has left; the host sees the exit and starts a fresh worker for the next run.
    setImmediate(() => process.exit(1));
  }
});
port.postMessage({ ready: true });
