import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { type Database, withTenant } from '../db/client';
import {
  accounts,
  erpProducts,
  mallGoods,
  releaseAbilities,
  releaseClients,
  releaseEnvs,
  releaseLogChunks,
  releaseProcesses,
  releaseProjects,
  releaseStepRuns,
  releaseTasks,
  tenants,
  tenantUsers,
} from '../db/schema';
import type { ReleaseSnapshotStep } from '../db/schema/release';
import { sha256 } from '../modules/release/engine';

/**
 * Demo goods on the mall's shelf: the first three teas of each demo tenant, published as the goods page
 * would (the product's name and images, its SKU prices), on the shelf. Skipped when the tenant has goods.
 */
export async function seedDemoGoods(database: Database, tenantCodes: readonly string[]): Promise<void> {
  for (const code of tenantCodes) {
    const [tenant] = await database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code));
    if (!tenant) continue;
    await withTenant(database.db, tenant.id, async (tx) => {
      const [has] = await tx.select({ n: count() }).from(mallGoods);
      if ((has?.n ?? 0) > 0) return;
      const products = await tx
        .select({ id: erpProducts.id, name: erpProducts.name, images: erpProducts.images })
        .from(erpProducts)
        .where(inArray(erpProducts.code, ['TEA001', 'TEA002', 'TEA003']))
        .orderBy(asc(erpProducts.code));
      if (products.length === 0) return;
      await tx.insert(mallGoods).values(
        products.map((p, i) => ({
          tenantId: tenant.id,
          productId: p.id,
          title: p.name,
          images: p.images,
          sort: products.length - i,
          shelf: 'on',
          createBy: 'system',
          updateBy: 'system',
        })),
      );
    });
  }
}

const DEPLOY_SCRIPT = [
  'echo "deploying $ATRIUM_PROJECT $ATRIUM_VERSION to $ATRIUM_ENV"',
  'echo "fetching the artifact"',
  'echo "restarting the service"',
  'echo "health check passed"',
].join('\n');

/**
 * Release management as a team would have it after a first week, in the HQ tenant (where the demo super
 * admin lands): a published ability, a staging and a protected production environment, a project with
 * its process, and finished deployments with their logs, run by an agent host since retired (disabled,
 * so no new task waits for it). Skipped when the tenant has any ability.
 */
export async function seedDemoRelease(database: Database, tenantCode: string): Promise<void> {
  const [tenant] = await database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, tenantCode));
  if (!tenant) return;
  const [admin] = await database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.accountId, 'admin'));
  if (!admin) return;
  const tenantId = tenant.id;
  await withTenant(database.db, tenantId, async (tx) => {
    const [has] = await tx.select({ n: count() }).from(releaseAbilities);
    if ((has?.n ?? 0) > 0) return;
    const [member] = await tx
      .select({ id: tenantUsers.id })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.accountRef, admin.id)));
    if (!member) return;
    const by = 'admin';
    const [ability] = await tx
      .insert(releaseAbilities)
      .values({
        tenantId,
        key: 'demo.deploy',
        name: '演示部署脚本 · Demo deploy',
        body: DEPLOY_SCRIPT,
        sha256: sha256(DEPLOY_SCRIPT),
        timeoutSec: 300,
        status: 'PUBLISHED',
        createBy: by,
        updateBy: by,
      })
      .returning();
    const envs = await tx
      .insert(releaseEnvs)
      .values([
        { tenantId, key: 'staging', name: '预发环境 · Staging', protected: false, requiredApprovals: 1, createBy: by, updateBy: by },
        { tenantId, key: 'production', name: '生产环境 · Production', protected: true, requiredApprovals: 1, createBy: by, updateBy: by },
      ])
      .returning({ id: releaseEnvs.id, key: releaseEnvs.key });
    const [project] = await tx
      .insert(releaseProjects)
      .values({ tenantId, key: 'shop-web', name: '门店网站 · Shop website', keepReleases: 5, createBy: by, updateBy: by })
      .returning({ id: releaseProjects.id });
    if (!ability || !project) return;
    const step = { abilityId: ability.id, params: {}, labels: [], timeoutSec: null, retries: 0 };
    const [flow] = await tx
      .insert(releaseProcesses)
      .values({ tenantId, projectId: project.id, name: '标准发布 · Standard deploy', steps: [step], createBy: by, updateBy: by })
      .returning({ id: releaseProcesses.id });
    const [host] = await tx
      .insert(releaseClients)
      .values({
        tenantId,
        hostname: 'demo-host-1',
        os: 'linux',
        agentVersion: '0.1.0',
        labels: ['web'],
        status: 'DISABLED',
        presence: 'offline',
        secretHash: sha256(randomBytes(32).toString('hex')),
        createBy: by,
        updateBy: by,
      })
      .returning({ id: releaseClients.id });
    if (!flow || !host) return;
    const snapshot: ReleaseSnapshotStep[] = [
      {
        ...step,
        abilityKey: ability.key,
        abilityVersion: ability.version,
        name: ability.name,
        body: DEPLOY_SCRIPT,
        sha256: ability.sha256,
        timeoutSec: 300,
      },
    ];
    const day = 86_400_000;
    const now = Date.now();
    const runs = [
      { env: 'staging', version: '1.0.0', daysAgo: 6 },
      { env: 'production', version: '1.0.0', daysAgo: 5 },
      { env: 'staging', version: '1.1.0', daysAgo: 2 },
    ];
    for (const run of runs) {
      const envId = envs.find((e) => e.key === run.env)?.id as number;
      const startedAt = new Date(now - run.daysAgo * day);
      const finishedAt = new Date(startedAt.getTime() + 42_000);
      const [task] = await tx
        .insert(releaseTasks)
        .values({
          tenantId,
          projectId: project.id,
          envId,
          processId: flow.id,
          version: run.version,
          status: 'SUCCEEDED',
          steps: snapshot,
          clientId: host.id,
          targets: [host.id],
          currentStep: 1,
          exitCode: 0,
          createdByUser: member.id,
          createdByAccount: admin.id,
          approvals: run.env === 'production' ? [member.id] : [],
          requiredApprovals: run.env === 'production' ? 1 : 0,
          startedAt,
          finishedAt,
          createBy: by,
          createTime: startedAt,
          updateBy: by,
          updateTime: finishedAt,
        })
        .returning({ id: releaseTasks.id });
      if (!task) continue;
      const log = [
        `deploying shop-web ${run.version} to ${run.env}`,
        'fetching the artifact',
        'restarting the service',
        'health check passed',
        '',
      ].join('\n');
      const [stepRun] = await tx
        .insert(releaseStepRuns)
        .values({
          tenantId,
          taskId: task.id,
          stepIndex: 0,
          clientId: host.id,
          status: 'SUCCEEDED',
          exitCode: 0,
          logBytes: Buffer.byteLength(log),
          startedAt,
          finishedAt,
        })
        .returning({ id: releaseStepRuns.id });
      if (stepRun) await tx.insert(releaseLogChunks).values({ tenantId, stepRunId: stepRun.id, seq: 0, taskId: task.id, text: log });
    }
  });
}
