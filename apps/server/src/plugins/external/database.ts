import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Database, type Tx, withTenant } from '../../db/client';
import { throttledWarn } from '../../throttle';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    /** Runs `work` in a transaction scoped to one tenant (row-level security sees only its rows). */
    withTenant<T>(tenantId: number, work: (tx: Tx) => Promise<T>): Promise<T>;
  }
}

/** Decorates the app with the opened database; closing the app closes it (PGlite must be closed cleanly). */
export const databasePlugin = fp(
  async (app: FastifyInstance, options: { database: Database }) => {
    app.decorate('database', options.database);
    options.database.onConnectionError = throttledWarn(
      app.log,
      'database connection lost; the request using it fails with 503 (a read is retried) and the pool opens a new one',
    );
    app.decorate('withTenant', <T>(tenantId: number, work: (tx: Tx) => Promise<T>) => withTenant(options.database.db, tenantId, work));
    app.addHook('onClose', async () => {
      await options.database.close();
    });
  },
  { name: 'database' },
);
