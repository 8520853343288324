-- Hand-written (issue 8 item 5): the OAuth engine's records are now keyed by the SHA-256 of their
-- ids, with the bearer values inside them sealed (lib/oidc/payload-codec.ts). Rows written before
-- hold tokens, codes and session ids in clear and could no longer be found under their plain ids:
-- they are removed, so no plaintext token stays in the database. People sign in to OAuth clients
-- again; clients themselves (OAuthClient) are untouched.
DELETE FROM "OidcPayload";
