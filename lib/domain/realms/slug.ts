import { z } from 'zod';

// Realm slug rules (spec 2.1): 3-63 characters, lower-case letters, digits and hyphens, starting
// with a letter and not ending with a hyphen, and not a reserved word. The reserved list covers the
// words the spec names plus every path segment and infrastructure name a slug could be confused with.
const SLUG_PATTERN = /^[a-z][a-z0-9-]{1,61}[a-z0-9]$/;

const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'system',
  'health',
  'swagger',
  'api',
  'connect',
  'admin',
  'administrator',
  'root',
  'www',
  'mail',
  'smtp',
  'ftp',
  'localhost',
  'default',
  'null',
  'undefined',
  'gatehouse',
  'control-plane',
  'realm',
  'realms',
  // Static segments beside /api/admin/realms/{slug} (the manifest routes): such a realm's routes would be shadowed.
  'import',
  'manifest-schema',
  'tenant',
  'tenants',
  'master',
  'internal',
  'global',
  'oauth',
  'oauth2',
  'oidc',
  'openid',
  'saml',
  'signalr',
  'well-known',
  'static',
  'assets',
  'public',
  'favicon',
  'login',
  'logout',
  'auth',
  'account',
  'bootstrap',
  'console',
  'register',
  'verify',
  'consent',
  'metrics',
  'status',
  'flags',
  'entitlements',
  'docs',
  'help',
  'support',
  'security',
  'token',
  'jwks',
  'next',
  'app',
  'apps',
]);

export type SlugProblem = 'invalid' | 'reserved';

/** The slug rules as a form rule, for the console (the API answers them with its own problem codes). */
export const realmSlugRule = z
  .string()
  .trim()
  .refine((s) => slugProblem(s) !== 'invalid', 'Use 3–63 lower-case letters, digits or single hyphens, starting with a letter and not ending with a hyphen.')
  .refine((s) => slugProblem(s) !== 'reserved', 'This name is reserved; choose another.');

export function slugProblem(slug: string): SlugProblem | null {
  if (!SLUG_PATTERN.test(slug) || slug.includes('--')) return 'invalid';
  if (RESERVED_SLUGS.has(slug)) return 'reserved';
  return null;
}
