import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { passwordSchema } from '@atrium/contracts';
import { AppError } from '../../errors';
import { createHashThreads, HashThreadLost } from './hash-threads';

// OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane, hashed on threads of their own (hash-threads.ts).
// algorithm 2 is Argon2id (the package's const enum cannot be imported under isolatedModules)
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// next to this file in src/, next to main.js in the build (apps/server/build.mjs copies it)
const common = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line && !line.startsWith('#')),
);

/**
 * Password hashing runs at most one per core; the next ARGON2_QUEUE_PER_CORE per core wait their turn and
 * anything past that is a 429 with Retry-After. More hashes at once than cores only share the CPU (each
 * wants 19 MiB and ~10 ms of a core), so every sign-in took longer and the latency of a burst grew without
 * bound; a bounded queue keeps a sign-in's wait under a second and tells the rest to come back.
 * Of those waiting, one per core is already queued on its hashing thread, so that the thread starts it
 * the moment it finishes the one it runs (hash-threads.ts).
 */
export const ARGON2_QUEUE_PER_CORE = 4;
const JOBS_PER_THREAD = 2;
export function createGate(slots: number, queueLimit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running >= slots) {
        if (waiting.length >= queueLimit) throw new AppError('rateLimited', { data: { retryAfterSeconds: 1 } });
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else running++;
      try {
        return await work();
      } finally {
        // the slot passes straight to the next in line, or is freed
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}

const cores = Math.max(1, availableParallelism());
const threads = createHashThreads(cores);
export const argon2Gate = createGate(cores * JOBS_PER_THREAD, cores * (ARGON2_QUEUE_PER_CORE + 1 - JOBS_PER_THREAD));

const hash = (password: string) => threads.run<string>({ op: 'hash', password, options: ARGON2 });

export const hashPassword = (password: string) => argon2Gate.run(() => hash(password));

/** Compares with a stored hash; a malformed hash is a mismatch, not a crash (a lost thread is an error). */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  return argon2Gate.run(async () => {
    try {
      return await threads.run<boolean>({ op: 'verify', stored, password });
    } catch (error) {
      if (error instanceof HashThreadLost) throw error;
      return false;
    }
  });
}

// verified against when the account does not exist, so both answers take as long
let decoy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hash('decoy-password-never-matches!1');
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
