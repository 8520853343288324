import { z } from 'zod';
import { kerberosSectionSchema, ldapSectionSchema, oidcSectionSchema, type ExternalFlavor } from '../external-identity/sections';
import type { Flavor } from './schemas';

// A login provider's settings as stored in its `config` JSON column: the Jit rule, the script and
// the flavor's section. The secret is not here: it lives sealed in its own column (provider-secret.ts).
// Parsed leniently on read: a stored value that no longer fits falls back to the safe default
// (JIT off, no section), so a bad row disables the provider instead of breaking the realm.
const storedSamlSchema = z.object({
  IdpMetadataXml: z.string().nullish(),
  IdpEntityId: z.string().nullish(),
  IdpSsoUrl: z.string().nullish(),
  IdpCertificate: z.string().nullish(),
  /** The SP's signing certificate (public; its private key is the provider's sealed secret). */
  SpCertificate: z.string().nullish(),
});

const storedConfigSchema = z.object({
  Jit: z.object({ Enabled: z.boolean(), DefaultGroupIds: z.array(z.string()) }).catch({ Enabled: false, DefaultGroupIds: [] }),
  UserUpdateScript: z.string().nullish().catch(null),
  Oidc: oidcSectionSchema.nullish().catch(null),
  Saml: storedSamlSchema.nullish().catch(null),
  Ldap: ldapSectionSchema.nullish().catch(null),
  Kerberos: kerberosSectionSchema.nullish().catch(null),
});
export type ProviderConfig = z.infer<typeof storedConfigSchema>;

export function parseProviderConfig(json: string): ProviderConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    raw = {};
  }
  return storedConfigSchema.parse(raw && typeof raw === 'object' ? raw : {});
}

export function isExternalFlavor(flavor: string): flavor is ExternalFlavor {
  return flavor === 'Oidc' || flavor === 'Saml' || flavor === 'Ldap' || flavor === 'Kerberos';
}

export function asFlavor(flavor: string): Flavor {
  return isExternalFlavor(flavor) ? flavor : 'Internal';
}

/** The sign-in entry point kind of a flavor (spec 2.5): OIDC and SAML providers have one. */
export function entryKind(flavor: string): 'Oidc' | 'Saml' | undefined {
  return flavor === 'Oidc' || flavor === 'Saml' ? flavor : undefined;
}
