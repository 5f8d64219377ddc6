import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors';
import { ARGON2_QUEUE_PER_CORE, createGate } from '../src/modules/auth/password';
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
