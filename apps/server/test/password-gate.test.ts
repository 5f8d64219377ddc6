import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors';
import { createHashThreads, HashThreadLost } from '../src/modules/auth/hash-threads';
import { ARGON2_QUEUE_PER_CORE, createGate, hashPassword, verifyPassword } from '../src/modules/auth/password';
import { buildTestApp } from './helper';

describe('password hashing gate', () => {
  it('runs as many as it has slots, queues the next in order, refuses past the queue and frees a slot after a failure', async () => {
    const gate = createGate(1, 2);
    const order: string[] = [];
    let release!: () => void;
    const first = gate.run(() => new Promise<void>((resolve) => (release = resolve)).then(() => order.push('first')));
    const second = gate.run(async () => {
      order.push('second');
      throw new Error('boom');
    });
    const third = gate.run(async () => order.push('third'));
    expect([gate.running, gate.waiting]).toEqual([1, 2]);
    const refused = await gate.run(async () => 'fourth').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).entry.status).toBe(429);
    expect((refused as AppError).data).toEqual({ retryAfterSeconds: 1 });
    release();
    await first;
    await expect(second).rejects.toThrow('boom');
    await third;
    expect(order).toEqual(['first', 'second', 'third']);
    expect([gate.running, gate.waiting]).toEqual([0, 0]);
  });
});

describe('hashing threads', () => {
  const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

  it('hand each thread its next job while it runs one, and answer each job its own result', async () => {
    const threads = createHashThreads(2);
    try {
      const passwords = ['first-Pass1!', 'second-Pass2!', 'third-Pass3!', 'fourth-Pass4!'];
      const hashing = passwords.map((password) => threads.run<string>({ op: 'hash', password, options }));
      // two per thread: the one it runs and the next, already on its queue
      expect(threads.load).toEqual([2, 2]);
      const hashes = await Promise.all(hashing);
      expect(threads.load).toEqual([0, 0]);
      expect(hashes.every((h) => h.startsWith('$argon2id$v=19$m=19456,t=2,p=1$'))).toBe(true);
      const checks = await Promise.all(
        passwords.flatMap((password, i) => [
          threads.run<boolean>({ op: 'verify', stored: hashes[i] as string, password }),
          threads.run<boolean>({ op: 'verify', stored: hashes[(i + 1) % 4] as string, password }),
        ]),
      );
      expect(checks).toEqual([true, false, true, false, true, false, true, false]);
    } finally {
      await threads.close();
    }
  });

  it('fail the jobs of a thread that stops, and start a new one for the next', async () => {
    const threads = createHashThreads(1);
    const held = threads.run<string>({ op: 'hash', password: 'held-Pass1!', options });
    await threads.close();
    await expect(held).rejects.toBeInstanceOf(HashThreadLost);
    const after = await threads.run<string>({ op: 'hash', password: 'after-Pass1!', options });
    expect(await threads.run<boolean>({ op: 'verify', stored: after, password: 'after-Pass1!' })).toBe(true);
    await threads.close();
  });

  it('read a malformed stored hash as a mismatch', async () => {
    expect(await verifyPassword('not-a-hash', 'whatever')).toBe(false);
    expect(await verifyPassword(await hashPassword('Right-Pass1!'), 'Right-Pass1!')).toBe(true);
  });
});

// the gate does not depend on the engine
describe('a burst of sign-ins', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    ctx = await buildTestApp('pglite', { LOGIN_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers past the queue with 429 and Retry-After, never an error, and signs in again once it has passed', async () => {
    // three times what the cores and their queues hold
    const burst = availableParallelism() * (1 + ARGON2_QUEUE_PER_CORE) * 3;
    const login = () =>
      ctx.app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account: 'admin', password: 'Admin@123456' } });
    const answers = await Promise.all(Array.from({ length: burst }, login));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.headers['retry-after']).toBe('1');
    expect(refused[0]?.json().code).toBe(429);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect((await login()).statusCode).toBe(200);
  });
});
