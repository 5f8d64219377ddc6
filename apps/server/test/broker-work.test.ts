import { describe, expect, it } from 'vitest';
import { BrokerBusy, BrokerWork } from '../src/modules/realtime/work';

describe("the broker's database work", () => {
  it('runs at most its concurrency at once, in order, and refuses what does not fit in the queue', async () => {
    const work = new BrokerWork(2, 3);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const gates: (() => void)[] = [];
    const job = (n: number) => () =>
      new Promise<number>((resolve) => {
        running++;
        most = Math.max(most, running);
        gates.push(() => {
          running--;
          order.push(n);
          resolve(n);
        });
      });
    const taken = [1, 2, 3, 4, 5].map((n) => work.run(job(n)));
    // two run, three wait: a sixth is refused at once
    await expect(work.run(job(6))).rejects.toBeInstanceOf(BrokerBusy);
    expect([work.running, work.waiting]).toEqual([2, 3]);
    while (order.length < 5) {
      await new Promise((resolve) => setImmediate(resolve));
      gates.shift()?.();
    }
    expect(await Promise.all(taken)).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('takes a quarter of the connection pool at most, and always at least one connection', () => {
    expect(BrokerWork.concurrencyFor(1)).toBe(1);
    expect(BrokerWork.concurrencyFor(4)).toBe(1);
    expect(BrokerWork.concurrencyFor(10)).toBe(2);
    expect(BrokerWork.concurrencyFor(40)).toBe(10);
  });
});
