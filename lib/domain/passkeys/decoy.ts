import { createHmac } from 'node:crypto';
import { derivedKey } from '../../crypto/secret-box';

// Anti-enumeration for POST /api/account/passkey/login-options with a UserName: a name with no
// passkeys (unknown, or a user who has none) is answered with one decoy credential id instead of
// an empty list, so "this user exists and has passkeys" cannot be told from "no such user". The
// decoy is an HMAC of the realm and the name under a key derived from the platform key (the same
// on every instance and across restarts), so the same name always gets the same decoy and nobody
// outside can compute it.
const KEY_PURPOSE = 'passkey-decoy-v1';

/** A credential id for a name without passkeys: 32 bytes (base64url), the most common length. */
export async function decoyCredentialId(realmId: string, name: string): Promise<string> {
  return createHmac('sha256', await derivedKey(KEY_PURPOSE))
    .update(`${realmId}\n${name.trim().toLowerCase()}`)
    .digest()
    .toString('base64url');
}
