import { readFileSync } from 'node:fs';
import { passwordSchema } from '@atrium/contracts';
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../errors';

// OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane. The async API hashes on libuv's thread pool.
// algorithm 2 is Argon2id (the package's const enum cannot be imported under isolatedModules)
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// next to this file in src/, next to main.js in the build (apps/server/build.mjs copies it)
const common = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line && !line.startsWith('#')),
);

export const hashPassword = (password: string) => hash(password, ARGON2);

/** Compares with a stored hash; a malformed hash is a mismatch, not a crash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// verified against when the account does not exist, so both answers take as long
let decoy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword('decoy-password-never-matches!1');
  await verifyPassword(await decoy, password);
}

export const isCommonPassword = (password: string) => common.has(password.trim().toLowerCase());

/**
 * The password rules (spec 5): the contract's policy plus the common-password list.
 * Answers the message key of the first rule broken, or null.
 */
export function passwordProblem(password: string): string | null {
  const result = passwordSchema.safeParse(password);
  if (!result.success) return result.error.issues[0]?.message ?? 'password.weak';
  if (isCommonPassword(password)) return 'password.common';
  return null;
}

/** Refuses a password that breaks the policy or is a common one, naming the field (400). */
export function assertPasswordPolicy(password: string, field = 'password') {
  const problem = passwordProblem(password);
  if (problem) throw new AppError('validation', { fields: [{ field, rule: problem.split('.')[1] ?? 'weak', message: problem }] });
}
