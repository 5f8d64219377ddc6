import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Database, type Tx, withTenant } from '../db/client';

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
    app.decorate('withTenant', <T>(tenantId: number, work: (tx: Tx) => Promise<T>) => withTenant(options.database.db, tenantId, work));
    app.addHook('onClose', async () => {
      await options.database.close();
    });
  },
  { name: 'database' },
);
