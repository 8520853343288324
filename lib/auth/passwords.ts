import { hash, verify } from '@node-rs/argon2';

// Passwords people choose are hashed with argon2id at OWASP's parameters (m=19456 KiB, t=2, p=1),
// off the event loop (@node-rs/argon2's async API runs on the libuv pool). docs/environment.md.
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 /* Argon2id */ } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(hashValue: string, password: string): Promise<boolean> {
  try {
    return await verify(hashValue, password);
  } catch {
    return false;
  }
}

// A fixed hash of a random password: verified against when the user does not exist, so a login
// for an unknown name costs the same time as one with a wrong password (anti-enumeration).
let dummy: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(`dummy-${Math.random()}-${Date.now()}`);
  return dummy;
}
