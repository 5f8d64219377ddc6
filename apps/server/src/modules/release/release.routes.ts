import type { FastifyInstance } from 'fastify';
import { abilityRoutes } from './abilities';
import { clientRoutes } from './clients';
import { ReleaseEngine } from './engine';
import { envRoutes } from './envs';
import { grantRoutes } from './grants';
import { processRoutes, projectRoutes } from './projects';
import { taskRoutes } from './tasks';

/**
 * Release management under `/api/release`: the resources of `@atrium/contracts/release-entities` over the
 * generic repository, their own actions and the tasks as `typedRoute`s with response schemas from
 * `@atrium/contracts/release-items`; the engine serves the agents over the broker.
 */
export async function releaseRoutes(app: FastifyInstance) {
  const engine = new ReleaseEngine(app, { leaseMs: app.config.RELEASE_LEASE_MS, logCapBytes: app.config.RELEASE_LOG_CAP_BYTES });
  app.realtime.agentBridge = engine;
  app.addHook('onReady', async () => engine.start());
  app.addHook('onClose', async () => {
    engine.stop();
    if (app.realtime.agentBridge === engine) app.realtime.agentBridge = null;
  });
  abilityRoutes(app);
  envRoutes(app);
  projectRoutes(app);
  processRoutes(app);
  clientRoutes(app, engine);
  grantRoutes(app);
  taskRoutes(app, engine);
}
