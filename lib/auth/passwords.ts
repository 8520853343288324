import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { concurrencyGate } from '../runtime/concurrency-gate';

// Passwords people choose are hashed with argon2id at OWASP's parameters (m=19456 KiB, t=2, p=1),
// off the event loop (@node-rs/argon2's async API runs on the libuv pool). docs/environment.md.
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 /* Argon2id */ } as const;

// As many argon2id computations at once as there are cores, never all of libuv's pool (4 threads
// by default): beyond the cores they only slow each other down (each works through 19 MiB), and a
// burst of sign-ins would otherwise hold every pool thread the file system and DNS need.
const argon2 = concurrencyGate(Math.max(1, Math.min(availableParallelism(), 3)));

export function hashPassword(password: string): Promise<string> {
  return argon2(() => hash(password, OPTIONS));
}

export async function verifyPassword(hashValue: string, password: string): Promise<boolean> {
  try {
    return await argon2(() => verify(hashValue, password));
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
