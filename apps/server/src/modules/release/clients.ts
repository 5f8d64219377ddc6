import { enrolSchema, idParam } from '@atrium/contracts/release';
import { clientEntity } from '@atrium/contracts/release-entities';
import { clientSchema, enrolledSchema, enrolTokenSchema, type ReleaseClient } from '@atrium/contracts/release-items';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { refused } from '../../crud/conflict';
import { registerTable } from '../../crud/entity';
import { typedRoute } from '../../crud/typed-route';
import { withTenant } from '../../db/client';
import { releaseClients, releaseEnrolTokens } from '../../db/schema';
import { notFound } from '../../errors';
import { agentUsername } from '../realtime/rules';
import { at, by, strip } from './access';
import { newSecret, type ReleaseEngine, sha256 } from './engine';

const client = clientEntity.resource;
type ClientRow = typeof releaseClients.$inferSelect;
/** An agent as the API shows it: never the hash of its secret. */
const toClient = (row: ClientRow) => {
  const { secretHash: _s, ...rest } = strip(row);
  return rest as ReleaseClient;
};

/**
 * Agents (clients): the manifest's list, one row and update (labels, concurrency) over the table; enrolled
 * with a one-time token, approved, disabled or revoked by the tenant, each a route of its own.
 */
export function clientRoutes(app: FastifyInstance, engine: ReleaseEngine) {
  registerTable(app, clientEntity, releaseClients, { toItem: (row) => toClient(row as ClientRow) });
  typedRoute(
    app,
    client,
    { ...at('POST', '/release/client/enrol-token'), action: 'enrol', response: enrolTokenSchema, write: true },
    async (ctx) => {
      // the tenant is part of the token: enrolment finds its row without looking through every tenant
      const token = `${ctx.caller.tenantId}.${newSecret()}`;
      const expiresAt = new Date(app.clock.now().getTime() + app.config.RELEASE_ENROL_TOKEN_TTL_MS);
      await ctx.tx
        .insert(releaseEnrolTokens)
        .values({ tenantId: ctx.caller.tenantId, tokenHash: sha256(token), expiresAt, createBy: by(ctx) });
      return { token, expiresAt: expiresAt.toISOString() };
    },
  );
  for (const [action, from, to] of [
    ['approve', ['PENDING', 'DISABLED'], 'ACTIVE'],
    ['disable', ['PENDING', 'ACTIVE'], 'DISABLED'],
    ['revoke', ['PENDING', 'ACTIVE', 'DISABLED'], 'REVOKED'],
  ] as const) {
    typedRoute(
      app,
      client,
      { ...at('PUT', `/release/client/:id/${action}`), action, params: idParam, response: clientSchema, write: true },
      async (ctx, { params }) => {
        const [row] = await ctx.tx
          .update(releaseClients)
          .set({ status: to, updateBy: by(ctx), updateTime: new Date() })
          .where(and(eq(releaseClients.id, params.id), inArray(releaseClients.status, [...from])))
          .returning();
        // a disabled or revoked agent is disconnected at once, and its running steps are LOST
        if (row && to !== 'ACTIVE')
          ctx.afterCommit(() =>
            engine.clientEnded(row.tenantId, row.id).catch((err: unknown) => app.log.warn({ err }, 'an ended agent not wound up')),
          );
        if (row) return toClient(row);
        const [exists] = await ctx.tx.select({ id: releaseClients.id }).from(releaseClients).where(eq(releaseClients.id, params.id));
        throw exists ? refused('status', 'transition', 'release.transition') : notFound();
      },
    );
  }
  // called by the agent, without a session: the one-time token is the credential
  typedRoute(
    app,
    client,
    {
      method: 'POST',
      url: '/release/client/enrol',
      summary: 'an agent enrols with a one-time token',
      body: enrolSchema,
      response: enrolledSchema,
      public: { max: 20, timeWindow: 60_000 },
    },
    async ({ body }) => {
      const tenantId = Number(body.token.split('.')[0]);
      const refuse = refused('token', 'invalid', 'release.enrolToken');
      if (!Number.isSafeInteger(tenantId) || tenantId <= 0) throw refuse;
      const now = app.clock.now();
      const secret = newSecret();
      const enrolled = await withTenant(app.database.db, tenantId, async (tx) => {
        // single use: the token is spent by the same statement that checks it
        const [spent] = await tx
          .update(releaseEnrolTokens)
          .set({ usedAt: now })
          .where(
            and(
              eq(releaseEnrolTokens.tokenHash, sha256(body.token)),
              isNull(releaseEnrolTokens.usedAt),
              sql`${releaseEnrolTokens.expiresAt} > ${now}`,
            ),
          )
          .returning({ id: releaseEnrolTokens.id });
        if (!spent) return null;
        const [row] = await tx
          .insert(releaseClients)
          .values({
            tenantId,
            hostname: body.hostname,
            os: body.os,
            agentVersion: body.agentVersion,
            labels: body.labels,
            maxConcurrency: body.maxConcurrency,
            status: 'PENDING',
            secretHash: sha256(secret),
            createBy: 'agent',
          })
          .returning({ id: releaseClients.id });
        await tx.update(releaseEnrolTokens).set({ clientId: row?.id }).where(eq(releaseEnrolTokens.id, spent.id));
        return row ?? null;
      }).catch((error: unknown) => {
        // a tenant that does not exist: the same answer as an unknown token
        if ((error as { code?: string }).code === '23503') return null;
        throw error;
      });
      if (!enrolled) throw refuse;
      const identity = { tenantId, clientId: enrolled.id };
      return {
        id: enrolled.id,
        tenantId,
        secret,
        username: agentUsername(identity),
        broker: app.realtime.publicUrl,
        brokerPort: app.realtime.port,
      };
    },
  );
}
