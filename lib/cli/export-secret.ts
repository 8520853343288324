import { exportStoredKey } from '../crypto/secret-box';

// `gatehouse keys export-secret`: the way out for a deployment whose encryption key was generated
// into the global store (development, or versions before the key was required in production).
// Prints the key as the last line of stdout, with what to do on stderr; changes nothing.
export async function exportSecret(out: (line: string) => void): Promise<void> {
  const key = await exportStoredKey();
  if (!key) throw new Error('the global store keeps no encryption key (the key is configured outside it, or nothing was encrypted yet)');
  process.stderr.write(
    "Write this value to gatehouse.key (mode 0600) in the server's working directory, or set GATEHOUSE_SECRET_KEY to it (or write it to a file of mode 0600 named by GATEHOUSE_SECRET_KEY_FILE), and restart: Gatehouse then removes the copy in the global store. Keep it as secret as a password.\n",
  );
  out(key);
}
