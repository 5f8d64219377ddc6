import { tenantResource } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../../crud/register-resource';
import { endSessions, invalidateAccess } from '../../auth/session.service';
import { tenantRepository } from './tenant.repository';

/** Tenants, for the platform's super admin only; disabling one ends its sessions (1302). */
export async function tenantRoutes(app: FastifyInstance) {
  registerResource(
    app,
    tenantResource,
    {
      ...tenantRepository,
      async update(ctx, id, input, before) {
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
    },
    { globalResource: true },
  );
  const statusChanged = (tenantId: number, status: string) =>
    status === '1' ? endSessions(app, { reason: 'tenant_disabled', tenantId }) : invalidateAccess(app, { tenantId });
}
