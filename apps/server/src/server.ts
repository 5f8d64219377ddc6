import { buildApp } from './app';
import type { Config } from './config';
import { configuredDatabase, openDatabase } from './db/client';
import { lockDataDir } from './lock';
import { seed } from './seed';
import { retirePublishedPasswords } from './seed/published-passwords';

/**
 * Opens the database (locking DATA_DIR when it is embedded), migrates, seeds and listens.
 * `stop(drainMs)` drains first — `/readyz` answers 503 `draining` while requests are still served for
 * `drainMs` (SHUTDOWN_DRAIN_MS), so a load balancer takes the instance out — then closes: the broker
 * lets its clients go, the listener closes, in-flight requests finish, Redis and the database close,
 * and the DATA_DIR lock is released.
 */
export async function startServer(config: Config, options: { logger?: boolean | object } = {}) {
  const embedded = !config.DATABASE_URL;
  const unlock = embedded ? lockDataDir(config.DATA_DIR) : () => {};
  try {
    const database = await openDatabase(configuredDatabase(config));
    const app = await buildApp({ config, database, logger: options.logger as never });
    try {
      if (!embedded && config.SEED === 'demo') {
        app.log.warn(
          'SEED=demo on PostgreSQL: demo tenants and accounts with published passwords (admin / Admin@123456) are being created',
        );
      }
      // one instance at a time, like the migrations
      await database.exclusively(() => seed(database, config));
      await database.exclusively(() => retirePublishedPasswords(app, database, config));
      await app.listen({ port: config.PORT, host: config.HOST });
    } catch (error) {
      await app.close();
      throw error;
    }
    let stopping: Promise<void> | undefined;
    const stop = (drainMs = config.SHUTDOWN_DRAIN_MS) => {
      stopping ??= (async () => {
        app.lifecycle.draining = true;
        if (drainMs > 0) {
          app.log.info({ drainMs }, 'draining: /readyz answers 503, requests are still served');
          await new Promise((resolve) => setTimeout(resolve, drainMs));
        }
        await app.close();
      })().finally(unlock);
      return stopping;
    };
    return { app, stop, url: `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${config.PORT}` };
  } catch (error) {
    unlock();
    throw error;
  }
}
