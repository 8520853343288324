import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runUserUpdateScript, userUpdateScriptProblem, USER_UPDATE_SCRIPT_MAX_LENGTH, type ScriptUser } from './user-update-script';

const ann: ScriptUser = { UserName: 'ann', Email: 'ann@example.com', Firstname: 'Ann', Lastname: null, Acronym: null };
const claims = { sub: '42', email: 'ann.new@example.com', given_name: 'Annie', family_name: 'Smith', groups: ['staff'] };

/** What a script sees: the value of one expression, as a string. */
const sees = async (expression: string) => {
  const outcome = await runUserUpdateScript(`return { Deny: String(${expression}) };`, {}, null);
  expect(outcome.kind).toBe('deny');
  return outcome.kind === 'deny' ? outcome.reason : undefined;
};

const failure = async (script: string, input: Record<string, unknown> = {}) => {
  const outcome = await runUserUpdateScript(script, input, ann);
  expect(outcome.kind).toBe('failed');
  return outcome.kind === 'failed' ? outcome.reason : '';
};

describe('runUserUpdateScript: results', () => {
  it('maps claims and the current user to changes', async () => {
    const script = `
      if (!claims.groups.includes('staff')) return { Deny: 'staff only' };
      return { Email: claims.email, Firstname: claims.given_name, Lastname: claims.family_name, Acronym: user.UserName.toUpperCase() };`;
    expect(await runUserUpdateScript(script, claims, ann)).toEqual({
      kind: 'update',
      changes: { Email: 'ann.new@example.com', Firstname: 'Annie', Lastname: 'Smith', Acronym: 'ANN' },
    });
  });

  it('sees user null for a person created just in time, and may clear names with null', async () => {
    const script = 'return user === null ? { UserName: claims.sub, Lastname: null } : { Firstname: "known" };';
    expect(await runUserUpdateScript(script, claims, null)).toEqual({ kind: 'update', changes: { UserName: '42', Lastname: null } });
  });

  it('denies with the reason the script gives', async () => {
    expect(await runUserUpdateScript('return { Deny: "not in the staff group" };', claims, ann)).toEqual({ kind: 'deny', reason: 'not in the staff group' });
  });

  it('changes nothing when the script returns nothing, undefined or null', async () => {
    for (const script of ['', '// nothing to do', 'return;', 'return undefined;', 'return null;', 'let x = claims.sub;']) {
      expect(await runUserUpdateScript(script, claims, ann), script).toEqual({ kind: 'update', changes: {} });
    }
  });

  it('starts every run afresh: what one run leaves on globalThis the next does not see', async () => {
    expect(await runUserUpdateScript('globalThis.leftOver = "x"; Object.prototype.polluted = "y";', {}, ann)).toEqual({ kind: 'update', changes: {} });
    expect(await sees('typeof leftOver + typeof ({}).polluted')).toBe('undefinedundefined');
  });

  it('runs concurrent calls one at a time without mixing their inputs', async () => {
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => runUserUpdateScript('return { Firstname: claims.n };', { n: `n${i}` }, ann)));
    expect(outcomes).toEqual(Array.from({ length: 20 }, (_, i) => ({ kind: 'update', changes: { Firstname: `n${i}` } })));
  });
});

describe('runUserUpdateScript: the sandbox', () => {
  it('has no clock: Date is gone and Math.random (seeded from the time) throws', async () => {
    expect(await sees('typeof Date + typeof globalThis.Date')).toBe('undefinedundefined');
    expect(await failure('return { Firstname: String(Date.now()) };')).toMatch(/^the script threw: ReferenceError: 'Date' is not defined/);
    expect(await failure('new Date(); return {};')).toMatch(/'Date' is not defined/);
    expect(await failure('return { Firstname: String(Math.random()) };')).toMatch(/Math\.random is not available/);
  });

  it('exposes nothing of the host: no require, process, fetch, timers, console or WebAssembly', async () => {
    const names = [
      'require',
      'process',
      'fetch',
      'setTimeout',
      'setInterval',
      'queueMicrotask',
      'console',
      'WebAssembly',
      'Buffer',
      'module',
      'exports',
      'std',
      'os',
    ];
    for (const name of names) {
      expect(await sees(`typeof ${name}`), name).toBe('undefined');
      expect(await sees(`typeof globalThis.${name}`), name).toBe('undefined');
    }
    // The global object holds only the language's built-ins.
    expect(await sees('Object.getOwnPropertyNames(globalThis).includes("JSON")')).toBe('true');
    expect(
      await sees('"[" + Object.getOwnPropertyNames(globalThis).filter((n) => /^(std|os|print|scriptArgs|performance|Date|console|require)$/.test(n)) + "]"'),
    ).toBe('[]');
  });

  it('hands the inputs over as plain data: claims and user are fresh objects of the guest', async () => {
    const script = `return { Firstname: [Object.getPrototypeOf(claims) === Object.prototype, Array.isArray(claims.groups), user.Lastname === null, user.UserName].join('|') };`;
    expect(await runUserUpdateScript(script, claims, ann)).toEqual({ kind: 'update', changes: { Firstname: 'true|true|true|ann' } });
  });

  it('stops an endless loop after 100 ms', async () => {
    const started = performance.now();
    expect(await failure('while (true) {}')).toBe('the script ran longer than 100 ms');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await failure('for (;;) { try { while (true) {} } catch (e) {} }')).toBe('the script ran longer than 100 ms');
    expect(await failure('return /(a+)+$/.test("a".repeat(40) + "b") ? {} : {};')).toBe('the script ran longer than 100 ms');
    expect(await failure('return { get Firstname() { for (;;) {} } };')).toBe('the script ran longer than 100 ms');
  });

  it('stops a loop around an expensive built-in, which QuickJS polls too rarely, by ending the worker', async () => {
    const started = performance.now();
    expect(await failure('for (;;) "x".repeat(1e7);')).toBe('the script ran longer than 100 ms');
    expect(await failure('function f() { try { return f(); } catch (e) { return f(); } } return f();')).toBe('the script ran longer than 100 ms');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await runUserUpdateScript('return { Firstname: "next run" };', {}, ann)).toEqual({ kind: 'update', changes: { Firstname: 'next run' } });
  });

  it('stops endless recursion and deep nesting, and keeps working afterwards', async () => {
    expect(await failure('function f() { return f() + 1; } return f();')).toBe('the script nested or recursed too deeply (stack overflow)');
    // The parser's recursion on nested literals: deep enough to overflow the host's own stack when unbounded.
    expect(await failure('return eval("[".repeat(200000) + "]".repeat(200000));')).toBe('the script nested or recursed too deeply (stack overflow)');
    expect(await failure('let o = {}; for (let i = 0; i < 100000; i++) o = { o }; return { Firstname: JSON.stringify(o) };')).toMatch(
      /stack overflow|longer than 100 ms/,
    );
    expect(await runUserUpdateScript('return { Firstname: "still fine" };', {}, ann)).toEqual({ kind: 'update', changes: { Firstname: 'still fine' } });
  });

  it('stops a script that takes too much memory', async () => {
    expect(await failure('return { Firstname: "x".repeat(1e9) };')).toBe('the script used more than 16 MiB of memory');
    expect(await failure('const b = new ArrayBuffer(1e8); return {};')).toBe('the script used more than 16 MiB of memory');
    // Near the limit QuickJS collects garbage before every allocation, so growing step by step
    // reaches the time limit (measured ~2 s to the memory limit): refused either way.
    expect(await failure('const a = []; for (;;) a.push({ n: a.length });')).toMatch(/16 MiB of memory|longer than 100 ms/);
    expect(await failure('const a = []; for (;;) a.push(new Float64Array(1e5));')).toMatch(/16 MiB of memory|longer than 100 ms/);
    expect(await failure('const a = []; for (;;) a.push(new Array(100000).fill(1));')).toMatch(/16 MiB of memory|longer than 100 ms/);
    expect(await runUserUpdateScript('return { Firstname: "x".repeat(100) };', {}, ann)).toEqual({ kind: 'update', changes: { Firstname: 'x'.repeat(100) } });
  });
});

describe('runUserUpdateScript: failures and their reasons', () => {
  it('refuses a script that does not compile, with the line', async () => {
    expect(await failure('const a = 1;\nreturn { Firstname: ) };')).toBe(
      "the script does not compile: SyntaxError: unexpected token in expression: ')' (line 2)",
    );
    expect(await failure('return {')).toMatch(/^the script does not compile: SyntaxError: .* \(line 1\)$/);
  });

  it('refuses a script that throws, quoting its message (trimmed) and line', async () => {
    expect(await failure('\n\nthrow new Error("no e-mail in the claims");')).toBe('the script threw: Error: no e-mail in the claims (line 3)');
    expect(await failure('throw "plain text";')).toBe('the script threw: plain text');
    expect(await failure('throw 42;')).toBe('the script threw: a thrown number');
    expect(await failure('throw { code: 1 };')).toBe('the script threw: a thrown object that is not an Error');
    expect(await failure('return claims.missing.field;')).toMatch(/^the script threw: TypeError: .* \(line 1\)$/);
    const long = await failure('throw new Error("x".repeat(5000));');
    expect(long.length).toBeLessThanOrEqual('the script threw: '.length + 300);
    // A thrown error whose properties are traps is read inside the sandbox, under the same limits.
    expect(await failure('const e = new Error("x"); Object.defineProperty(e, "message", { get() { for (;;) {} } }); throw e;')).toBe(
      'the script ran longer than 100 ms',
    );
    expect(await failure('throw new Proxy({}, { get() { throw new Error("trap"); } });')).toBe('the script threw: a thrown object that is not an Error');
  });

  it('refuses anything but an object, { Deny } or nothing', async () => {
    const cases: [string, RegExp][] = [
      ['return 42;', /returned a number; expected an object/],
      ['return "Ann";', /returned a string/],
      ['return true;', /returned a boolean/],
      ['return [{ Firstname: "x" }];', /returned an array/],
      ['return () => ({});', /returned a function/],
      ['return Promise.resolve({ Firstname: "x" });', /not a plain object/],
      ['return new (class Changes { constructor() { this.Firstname = "x"; } })();', /not a plain object/],
      ['return { Firstname: 42 };', /result is invalid: Firstname: Invalid input: expected string/],
      ['return { Email: "not an address" };', /result is invalid: Email: Enter a valid e-mail address/],
      ['return { Email: null };', /result is invalid: Email:/],
      ['return { UserName: "a".repeat(500) };', /result is invalid: UserName: Too big/],
      ['return { Acronym: "ABCDEFGHIJKLMNOPQRSTUVWXYZ" };', /result is invalid: Acronym: Too big/],
      ['return { Firstname: "x".repeat(70 * 1024) };', /result is larger than 64 KiB/],
      ['return { Deny: "" };', /Deny result is invalid: Deny: give a reason/],
      ['return { Deny: "x".repeat(501) };', /Deny result is invalid: Deny: Too big/],
      ['return { Deny: "no", Firstname: "x" };', /Deny result is invalid: Unrecognized key: "Firstname"/],
      ['return { toJSON() { return undefined; } };', /no JSON form/],
    ];
    for (const [script, reason] of cases) expect(await failure(script), script).toMatch(reason);
  });

  it('refuses fields it may not set, prototype keys included, without polluting the host', async () => {
    expect(await failure('return { Firstname: "x", IsAdmin: true };')).toMatch(/Unrecognized key: "IsAdmin"/);
    expect(await failure('return { ["__proto__"]: { IsAdmin: true } };')).toMatch(/Unrecognized key: "__proto__"/);
    expect(await failure('return JSON.parse(\'{"__proto__": {"IsAdmin": true}, "Firstname": "x"}\');')).toMatch(/Unrecognized key: "__proto__"/);
    expect(await failure('return { constructor: { prototype: { IsAdmin: true } } };')).toMatch(/Unrecognized key: "constructor"/);
    expect(await failure('return { __proto__: { IsAdmin: true } };')).toMatch(/not a plain object/);
    expect(await failure('return Object.create({ IsAdmin: true });')).toMatch(/not a plain object/);
    expect(({} as Record<string, unknown>).IsAdmin).toBeUndefined();
  });

  it('keeps the claims out of its own reasons', async () => {
    const secret = { email: 'SECRET-not-an-address', name: 'SECRET'.repeat(100) };
    expect(await failure('return { Email: claims.email };', secret)).not.toContain('SECRET');
    expect(await failure('return { Firstname: claims.name };', secret)).not.toContain('SECRET');
    expect(await failure('return { [claims.email]: 1 };', { email: 'x' })).toMatch(/Unrecognized key/);
  });

  it('refuses claims that are not JSON and scripts that are too long, before running anything', async () => {
    expect(await failure('return {};', { n: 1n })).toBe('the claims could not be handed to the script (they are not JSON)');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(await failure('return {};', cyclic)).toBe('the claims could not be handed to the script (they are not JSON)');
    expect(await failure('return {};', { big: 'x'.repeat(1024 * 1024) })).toBe('the claims are larger than 1024 KiB');
    expect(await failure(' '.repeat(USER_UPDATE_SCRIPT_MAX_LENGTH + 1))).toBe(`the script is longer than ${USER_UPDATE_SCRIPT_MAX_LENGTH} characters`);
  });
});

describe('userUpdateScriptProblem', () => {
  it('accepts a body that compiles, without running it', async () => {
    expect(await userUpdateScriptProblem('')).toBeUndefined();
    expect(await userUpdateScriptProblem('while (true) {}')).toBeUndefined();
    expect(await userUpdateScriptProblem('return { Firstname: claims.given_name };')).toBeUndefined();
  });

  it('names the syntax error and its line', async () => {
    expect(await userUpdateScriptProblem('const a = 1;\n\nreturn a b;')).toBe("SyntaxError: expecting ';' (line 3)");
    expect(await userUpdateScriptProblem('if (claims.x) {\n  return {};\n')).toMatch(/^SyntaxError: .* \(line 3\)$/);
    expect(await userUpdateScriptProblem('import fs from "fs";')).toMatch(/^SyntaxError/);
    expect(await userUpdateScriptProblem('x'.repeat(USER_UPDATE_SCRIPT_MAX_LENGTH + 1))).toMatch(/longer than/);
  });
});

describe('runUserUpdateScript: properties', () => {
  it('round-trips any string claim and never throws on the host, whatever the other claims', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.string({ unit: 'binary', maxLength: 50 }), async (other, x) => {
        const outcome = await runUserUpdateScript('return { Firstname: claims.x, Lastname: typeof claims.other };', { other, x }, null);
        expect(outcome).toEqual({ kind: 'update', changes: { Firstname: x, Lastname: 'object' } });
      }),
      { numRuns: 150 },
    );
  });

  it('answers an outcome, never a host exception, for arbitrary script text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), async (script) => {
        const outcome = await runUserUpdateScript(script, claims, ann);
        expect(['update', 'deny', 'failed']).toContain(outcome.kind);
      }),
      { numRuns: 150 },
    );
  });

  it('runs 500 times in a row without leaking', async () => {
    const run = (i: number) => runUserUpdateScript('return { Firstname: claims.given_name + claims.i };', { ...claims, i }, ann);
    for (let i = 0; i < 50; i++) await run(i);
    const before = process.memoryUsage();
    const started = performance.now();
    for (let i = 0; i < 500; i++) expect(await run(i)).toEqual({ kind: 'update', changes: { Firstname: `Annie${i}` } });
    const elapsed = performance.now() - started;
    const after = process.memoryUsage();
    // Loose: 500 runs take a few milliseconds each, and neither the WebAssembly memory (external)
    // nor the JavaScript heap grows with the number of runs.
    expect(elapsed).toBeLessThan(30_000);
    expect(after.external - before.external).toBeLessThan(32 * 1024 * 1024);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(64 * 1024 * 1024);
  });
});
