import { hash, verify, type Algorithm } from '@node-rs/argon2';

// OWASP's argon2id recommendation: 19 MiB, 2 passes, 1 lane (~17 ms a hash on these machines).
// Algorithm is a const enum in the typings; 2 is Argon2id.
const options = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** An argon2id hash (PHC string, salt included). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** Whether the password matches the hash; a malformed hash is a mismatch, not a crash. */
export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** Spends the same time as a real check, so an unknown account cannot be told apart by timing. */
export async function verifyDummy(password: string): Promise<void> {
  dummy ??= hashPassword('not-a-real-password-0');
  await verifyPassword(await dummy, password);
}
