// The signature algorithms a DPoP proof (RFC 9449) may use, one list for the engine's token endpoint
// and discovery (`dpop_signing_alg_values_supported`, lib/oidc/configuration.ts), Gatehouse's own
// resource check (lib/domain/access-tokens/dpop-proof.ts) and the `algs` of its DPoP challenges
// (lib/errors/problem.ts). Asymmetric only (RFC 9449 4.2): a proof must prove a private key.
export const DPOP_SIGNING_ALGS = ['ES256', 'Ed25519', 'EdDSA'] as const;
