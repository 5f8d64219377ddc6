import fastq, { type queueAsPromised } from 'fastq';

/** Refused because too much broker work is waiting already: the publishing client is disconnected. */
export class BrokerBusy extends Error {
  constructor() {
    super('the broker has too much work waiting');
  }
}

/**
 * The database work that broker connections cause (signing in, agents' reports, devices' acks and
 * status, presence, the periodic checks), run a few at a time so that it never holds more than its
 * share of the connection pool: HTTP requests always find connections left. What does not fit in the
 * queue is refused at once instead of waiting without bound.
 */
export class BrokerWork {
  private readonly queue: queueAsPromised<() => Promise<unknown>, unknown>;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {
    this.queue = fastq.promise((job: () => Promise<unknown>) => job(), Math.max(1, concurrency));
  }

  /** Jobs waiting for their turn (not counting those running). */
  get waiting(): number {
    return this.queue.length();
  }

  /** Jobs running now. */
  get running(): number {
    return this.queue.running();
  }

  /** Runs `job` when a slot is free; rejects with BrokerBusy when the queue is full. */
  run<T>(job: () => Promise<T>): Promise<T> {
    if (this.queue.length() >= this.maxWaiting) return Promise.reject(new BrokerBusy());
    return this.queue.push(job) as Promise<T>;
  }

  /** How many broker jobs may run at once with a pool of `poolSize` connections: a quarter of it, at least one. */
  static concurrencyFor(poolSize: number): number {
    return Math.max(1, Math.floor(poolSize / 4));
  }
}
