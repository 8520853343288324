import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STRUCTURED_TOKEN_ANSWER } from './jwt-token-endpoints';

// scripts/oidc-provider-patch.mjs (run after install): where the engine would refuse a JWT at
// introspection or revocation, it first hands the request to the answer a request's state carries.

const scriptUrl = new URL('../../scripts/oidc-provider-patch.mjs', import.meta.url).href;
type PatchModule = { HOOK_KEY: string; patchedSource(source: string): string | null };

const refusal = (indent: string) =>
  [
    'export default async function rejectStructuredTokens(ctx, next) {',
    `${indent}if (tokenIsJWT) {`,
    `${indent}  throw new UnsupportedTokenType('no');`,
    `${indent}}`,
    `${indent}return next();`,
    '}',
  ].join('\n');

describe('oidc-provider patch', () => {
  it('is applied to the engine Node loads, under the key Gatehouse sets', async () => {
    const { HOOK_KEY } = (await import(scriptUrl)) as PatchModule;
    expect(Symbol.for(HOOK_KEY)).toBe(STRUCTURED_TOKEN_ANSWER);
    const file = join(dirname(createRequire(import.meta.url).resolve('oidc-provider/package.json')), 'lib', 'shared', 'reject_structured_tokens.js');
    expect(readFileSync(file, 'utf8'), `${file} is patched (npm run postinstall)`).toContain(`Symbol.for('${HOOK_KEY}')`);
  });

  it('asks the answer before the refusal, keeps the refusal for everyone else, and changes nothing more', async () => {
    const { patchedSource } = (await import(scriptUrl)) as PatchModule;
    const out = patchedSource(refusal('  '))!;
    const lines = out.split('\n');
    expect(lines[1]).toBe('  if (tokenIsJWT) {');
    expect(lines[2]).toMatch(/^ {4}const answer = ctx\.state\?\.\[Symbol\.for\('gatehouse\.answerStructuredToken'\)\];$/);
    expect(lines[3]).toBe("    if (typeof answer === 'function') return answer(ctx);");
    expect(lines[4]).toBe("    throw new UnsupportedTokenType('no');");
    expect(out.replace(`${lines[2]}\n${lines[3]}\n`, '')).toBe(refusal('  '));
  });

  it('refuses to guess: no refusal, or more than one, patches nothing', async () => {
    const { patchedSource } = (await import(scriptUrl)) as PatchModule;
    expect(patchedSource('export default function x() {}')).toBeNull();
    expect(patchedSource(`${refusal('  ')}\n${refusal('  ')}`)).toBeNull();
  });

  it('the patched engine hands the request over, and refuses when no answer is set', async () => {
    const { patchedSource } = (await import(scriptUrl)) as PatchModule;
    const body = patchedSource(refusal('  '))!
      .replace('export default async function rejectStructuredTokens', 'return async function rejectStructuredTokens')
      .replace("throw new UnsupportedTokenType('no');", "throw new Error('refused');");
    const make = new Function('tokenIsJWT', body) as (jwt: boolean) => (ctx: unknown, next: () => string) => Promise<unknown>;
    const answered: unknown[] = [];
    const ctx = { state: { [STRUCTURED_TOKEN_ANSWER]: (c: unknown) => answered.push(c) && 'answered' } };
    await expect(make(true)(ctx, () => 'next')).resolves.toBe('answered');
    expect(answered).toEqual([ctx]);
    await expect(make(true)({ state: {} }, () => 'next')).rejects.toThrow('refused');
    await expect(make(false)(ctx, () => 'next')).resolves.toBe('next');
  });
});
