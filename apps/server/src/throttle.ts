import type { FastifyBaseLogger } from 'fastify';

/**
 * A warning for a failure that comes in bursts (connections lost in a failover): the first one is
 * logged, then at most one line per `intervalMs` saying how many were left out meanwhile.
 */
export function throttledWarn(log: FastifyBaseLogger, message: string, intervalMs = 10_000) {
  let last = 0;
  let skipped = 0;
  return (error: Error) => {
    const now = Date.now();
    if (now - last < intervalMs) {
      skipped += 1;
      return;
    }
    log.warn({ err: error, alsoSinceLastLine: skipped }, message);
    last = now;
    skipped = 0;
  };
}
