// oidc-provider refuses to introspect or revoke a JWT access token (its introspection and revocation
// endpoints know only the tokens it stores): after it authenticated the calling client it throws
// UnsupportedTokenType, and its error handler writes the refusal. Gatehouse answers for its JWTs
// itself (lib/oidc/jwt-token-endpoints.ts), and used to do so by rewriting that refusal afterwards:
// every JWT introspection paid for an error built with two stack captures, the error handler and the
// debug formatting, a fifth of the request's CPU (issue 14). The engine has no hook at that point,
// so after install this script gives it one: where it would throw, it first asks the request's
// `ctx.state[Symbol.for('gatehouse.answerStructuredToken')]` to answer, and throws only when no such
// function is there (as for any other user of the package, the bench's bare engine included).
//
// The patch matches the one statement it extends and fails the install when neither the patched nor
// the unpatched text is found (an oidc-provider upgrade must look at this again). Idempotent.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

export const HOOK_KEY = 'gatehouse.answerStructuredToken';
const MARKER = `Symbol.for('${HOOK_KEY}')`;
const REFUSAL = /\n([ \t]*)if \(tokenIsJWT\) \{\n/g;

export function patchedSource(source) {
  const matches = [...source.matchAll(REFUSAL)];
  if (matches.length !== 1) return null;
  const [whole, indent] = matches[0];
  const inner = `${indent}  `;
  return source.replace(whole, `${whole}${inner}const answer = ctx.state?.[${MARKER}];\n${inner}if (typeof answer === 'function') return answer(ctx);\n`);
}

export function patchOidcProvider() {
  const path = join(dirname(require.resolve('oidc-provider/package.json')), 'lib', 'shared', 'reject_structured_tokens.js');
  const source = readFileSync(path, 'utf8');
  if (source.includes(MARKER)) return;
  const next = patchedSource(source);
  if (next === null)
    throw new Error(
      `oidc-provider-patch: the structured-token refusal was not found in ${path}; check scripts/oidc-provider-patch.mjs against this oidc-provider version`,
    );
  writeFileSync(path, next);
  console.log('oidc-provider-patch: a structured (JWT) token is handed to Gatehouse before the engine refuses it');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) patchOidcProvider();
