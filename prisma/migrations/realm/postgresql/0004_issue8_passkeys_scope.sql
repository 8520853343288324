-- Hand-written seed data (issue 8 item 3): the built-in scope `gatehouse.passkeys`, which a token
-- needs to list and revoke its subject's passkeys at /connect/passkey, with the fixed id of
-- lib/domain/realms/seed-realm.ts, for realms seeded before it existed. A realm database being
-- created is still empty here (seeding follows the migrations), so the row is only added where the
-- built-in App shows an earlier seeding; NOT EXISTS makes a rerun harmless.
INSERT INTO "OAuthScope" ("id", "name", "displayName", "description", "isBuiltIn", "resources", "createdAt")
SELECT '00000000-0000-4000-8000-000000000044', 'gatehouse.passkeys', 'Manage your passkeys', 'List and remove the passkeys you sign in with', true, '["urn:gatehouse:management-api"]', "createdAt"
FROM "App"
WHERE "id" = '00000000-0000-4000-8000-000000000001'
  AND NOT EXISTS (SELECT 1 FROM "OAuthScope" WHERE "name" = 'gatehouse.passkeys');
