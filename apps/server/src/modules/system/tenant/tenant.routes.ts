import { tenantEntity, type UpdateTenantInput } from '@atrium/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { registerEntity } from '../../../crud/entity';
import { withTenant } from '../../../db/client';
import { printerDevices, releaseClients } from '../../../db/schema';
import { endSessions, invalidateAccess } from '../../auth/session.service';
import { tenantRepository } from './tenant.repository';

/** Tenants, for the platform's super admin only; disabling one ends its sessions (1302) and signs out its printers and agents. */
export async function tenantRoutes(app: FastifyInstance) {
  registerEntity(app, tenantEntity, {
    ...tenantRepository,
    async update(ctx, id, input: UpdateTenantInput, before) {
      const after = await tenantRepository.update(ctx, id, input);
      // a renamed tenant shows its new name in user info at once
      ctx.afterCommit(() => (before.status !== after.status ? statusChanged(id, after.status) : invalidateAccess(app, { tenantId: id })));
      return after;
    },
    async setStatus(ctx, id, status) {
      const after = await tenantRepository.setStatus(ctx, id, status);
      ctx.afterCommit(() => statusChanged(id, status));
      return after;
    },
  });
  const statusChanged = async (tenantId: number, status: string) => {
    if (status !== '1') return invalidateAccess(app, { tenantId });
    await endSessions(app, { reason: 'tenant_disabled', tenantId });
    // its printers and release agents are signed out too (they cannot sign in again while it is disabled)
    const devices = await app.database.db
      .select({ printerId: printerDevices.printerId, sn: printerDevices.sn })
      .from(printerDevices)
      .where(eq(printerDevices.tenantRef, tenantId));
    const agents = await withTenant(app.database.db, tenantId, (tx) => tx.select({ id: releaseClients.id }).from(releaseClients));
    const ended = [
      ...devices.map((d) => ({ kind: 'printer' as const, tenantId, printerId: d.printerId, sn: d.sn })),
      ...agents.map((a) => ({ kind: 'agent' as const, tenantId, clientId: a.id })),
    ];
    await Promise.all(
      ended.map((identity) =>
        app.realtime.endIdentity(identity).catch((err: unknown) => app.log.warn({ err }, 'a disabled tenant’s device not signed out')),
      ),
    );
  };
}
