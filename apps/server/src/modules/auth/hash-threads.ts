import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Password hashing on threads of its own, one per core, each handed its next job before it finishes
 * the current one.
 *
 * Through libuv's pool (`@node-rs/argon2`'s async API), a pool thread that finished a hash waited for
 * the main thread to take the result and queue the next one; under a burst of sign-ins with requests
 * being answered meanwhile, that wait left the cores idle for about 5 % of the time (measured: 143
 * sign-ins/s; with one job queued ahead on each hashing thread, 159/s). The pool's queue cannot hold
 * a job back for one thread: a third job would run at once on a third pool thread and share the two
 * cores (each hash works through 19 MiB, so two at a time on two cores beat three: 135/s). Here a
 * thread takes its queued job from its own message queue the moment it is done. libuv's pool stays
 * free for what else uses it (compression of answers, files).
 *
 * Each thread runs the package's synchronous functions; the worker's code is a string, so it runs the
 * same from the sources, the build and the tests, and loads the package from where this module
 * resolves it.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
parentPort.on('message', (job) => {
  try {
    const value = job.op === 'hash' ? argon2.hashSync(job.password, job.options) : argon2.verifySync(job.stored, job.password);
    parentPort.postMessage({ id: job.id, value });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
`;

export type HashJob =
  | { op: 'hash'; password: string; options: Record<string, number> }
  | { op: 'verify'; stored: string; password: string };

/** A hashing thread stopped with the job still on it: not the job's own failure (a malformed hash is). */
export class HashThreadLost extends Error {}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Thread = { worker: Worker; pending: Map<number, Pending> };

export function createHashThreads(count: number) {
  const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
  const threads: (Thread | undefined)[] = Array.from({ length: count }, () => undefined);
  let nextId = 1;

  const start = (slot: number): Thread => {
    const worker = new Worker(WORKER, { eval: true, workerData: { argon2 } });
    const thread: Thread = { worker, pending: new Map() };
    // an idle thread does not keep the process alive; one with work does (a script awaiting a hash)
    worker.unref();
    worker.on('message', (answer: { id: number; value?: unknown; error?: string }) => {
      const job = thread.pending.get(answer.id);
      if (!job) return;
      thread.pending.delete(answer.id);
      if (thread.pending.size === 0) worker.unref();
      if (answer.error !== undefined) job.reject(new Error(answer.error));
      else job.resolve(answer.value);
    });
    // a thread that died fails what it held; the next job starts a new one in its place
    const lost = (error: Error) => {
      if (threads[slot] === thread) threads[slot] = undefined;
      for (const job of thread.pending.values()) job.reject(error);
      thread.pending.clear();
    };
    worker.on('error', (error) => lost(new HashThreadLost(`hashing thread failed: ${error.message}`)));
    worker.on('exit', (code) => lost(new HashThreadLost(`hashing thread exited (${code})`)));
    threads[slot] = thread;
    return thread;
  };

  return {
    /** Runs a job on the thread with the fewest jobs (started on first use). */
    run<T>(job: HashJob): Promise<T> {
      let slot = 0;
      for (let i = 1; i < count; i++) {
        if ((threads[i]?.pending.size ?? 0) < (threads[slot]?.pending.size ?? 0)) slot = i;
      }
      const thread = threads[slot] ?? start(slot);
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        thread.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        thread.worker.ref();
        thread.worker.postMessage({ id, ...job });
      });
    },
    /** Jobs held by each thread (running and queued), for tests. */
    get load() {
      return threads.map((t) => t?.pending.size ?? 0);
    },
    /** Stops every thread; the next job starts them again. */
    async close() {
      await Promise.all(threads.map((t) => t?.worker.terminate()));
    },
  };
}
