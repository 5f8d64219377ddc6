import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { audit, id, ref, time } from './columns';
import { tenantId, tenantPolicy } from './tenancy';

// Release management: abilities, environments, projects, processes, agents (clients), tasks and their
// step runs and logs, and user-project grants. tenant_id first in every key, row-level security forced.

export type ReleaseVariable = { name: string; value: string; secret: boolean };
export type ReleaseStep = {
  abilityId: number;
  params: Record<string, string>;
  labels: string[];
  timeoutSec: number | null;
  retries: number;
};
/** A step as the task froze it at creation: the ability's published body and its hash. */
export type ReleaseSnapshotStep = ReleaseStep & {
  abilityKey: string;
  abilityVersion: number;
  name: string;
  body: string;
  sha256: string;
  timeoutSec: number;
};

export const releaseAbilities = pgTable(
  'release_abilities',
  {
    tenantId: tenantId(),
    id: id(),
    key: varchar('key', { length: 64 }).notNull(),
    version: integer('version').notNull().default(1),
    name: varchar('name', { length: 100 }).notNull(),
    runtime: varchar('runtime', { length: 16 }).notNull().default('shell'),
    body: text('body').notNull(),
    paramsSchema: jsonb('params_schema').$type<Record<string, unknown>>().notNull().default({}),
    timeoutSec: integer('timeout_sec').notNull().default(600),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('DRAFT'),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('release_abilities_key_version_key').on(t.tenantId, t.key, t.version),
    tenantPolicy('release_abilities'),
  ],
);

export const releaseEnvs = pgTable(
  'release_envs',
  {
    tenantId: tenantId(),
    id: id(),
    key: varchar('key', { length: 64 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    protected: boolean('protected').notNull().default(false),
    requiredApprovals: integer('required_approvals').notNull().default(1),
    variables: jsonb('variables').$type<ReleaseVariable[]>().notNull().default([]),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('release_envs_key_key').on(t.tenantId, t.key),
    tenantPolicy('release_envs'),
  ],
);

export const releaseProjects = pgTable(
  'release_projects',
  {
    tenantId: tenantId(),
    id: id(),
    key: varchar('key', { length: 64 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    artifactSource: varchar('artifact_source', { length: 500 }),
    keepReleases: integer('keep_releases').notNull().default(5),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('release_projects_key_key').on(t.tenantId, t.key),
    tenantPolicy('release_projects'),
  ],
);

export const releaseProcesses = pgTable(
  'release_processes',
  {
    tenantId: tenantId(),
    id: id(),
    projectId: ref('project_id').notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    steps: jsonb('steps').$type<ReleaseStep[]>().notNull().default([]),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('release_processes_project_idx').on(t.tenantId, t.projectId),
    tenantPolicy('release_processes'),
  ],
);

export const releaseClients = pgTable(
  'release_clients',
  {
    tenantId: tenantId(),
    id: id(),
    hostname: varchar('hostname', { length: 255 }).notNull(),
    os: varchar('os', { length: 64 }).notNull().default(''),
    agentVersion: varchar('agent_version', { length: 32 }).notNull().default(''),
    labels: jsonb('labels').$type<string[]>().notNull().default([]),
    maxConcurrency: integer('max_concurrency').notNull().default(1),
    status: varchar('status', { length: 16 }).notNull().default('PENDING'),
    presence: varchar('presence', { length: 8 }).notNull().default('offline'),
    lastSeenAt: time('last_seen_at'),
    /** sha256 of a 32-byte random secret: the secret has full entropy, a slow hash adds nothing */
    secretHash: varchar('secret_hash', { length: 64 }).notNull(),
    ...audit,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), tenantPolicy('release_clients')],
);

export const releaseEnrolTokens = pgTable(
  'release_enrol_tokens',
  {
    tenantId: tenantId(),
    id: id(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    expiresAt: time('expires_at').notNull(),
    usedAt: time('used_at'),
    clientId: ref('client_id'),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('release_enrol_tokens_hash_key').on(t.tenantId, t.tokenHash),
    tenantPolicy('release_enrol_tokens'),
  ],
);

export const releaseTasks = pgTable(
  'release_tasks',
  {
    tenantId: tenantId(),
    id: id(),
    projectId: ref('project_id').notNull(),
    envId: ref('env_id').notNull(),
    processId: ref('process_id').notNull(),
    version: varchar('version', { length: 100 }).notNull(),
    kind: varchar('kind', { length: 16 }).notNull().default('DEPLOY'),
    status: varchar('status', { length: 20 }).notNull(),
    steps: jsonb('steps').$type<ReleaseSnapshotStep[]>().notNull(),
    clientId: ref('client_id'),
    /** the agents the task runs on, each through every step, chosen when it starts */
    targets: jsonb('targets').$type<number[]>().notNull().default([]),
    /** a retry of failed hosts runs on these only (null: every agent that fits) */
    onlyClients: jsonb('only_clients').$type<number[] | null>(),
    currentStep: integer('current_step').notNull().default(0),
    exitCode: integer('exit_code'),
    createdByUser: ref('created_by_user').notNull(),
    createdByAccount: ref('created_by_account').notNull(),
    approvals: jsonb('approvals').$type<number[]>().notNull().default([]),
    requiredApprovals: integer('required_approvals').notNull().default(0),
    leaseUntil: time('lease_until'),
    startedAt: time('started_at'),
    finishedAt: time('finished_at'),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('release_tasks_queue_idx').on(t.tenantId, t.projectId, t.envId, t.status, t.id),
    // the lock: one running task per project and environment, enforced by the database
    uniqueIndex('release_tasks_running_key').on(t.tenantId, t.projectId, t.envId).where(sql`${t.status} in ('RUNNING', 'CANCELLING')`),
    tenantPolicy('release_tasks'),
  ],
);

export const releaseStepRuns = pgTable(
  'release_step_runs',
  {
    tenantId: tenantId(),
    id: id(),
    taskId: ref('task_id').notNull(),
    stepIndex: integer('step_index').notNull(),
    clientId: ref('client_id').notNull(),
    status: varchar('status', { length: 16 }).notNull().default('RUNNING'),
    exitCode: integer('exit_code'),
    logBytes: integer('log_bytes').notNull().default(0),
    truncated: boolean('truncated').notNull().default(false),
    startedAt: time('started_at').notNull().defaultNow(),
    /** when the agent said it took the run (its "started"); null while the command may still be on its way */
    acceptedAt: time('accepted_at'),
    finishedAt: time('finished_at'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('release_step_runs_task_idx').on(t.tenantId, t.taskId),
    tenantPolicy('release_step_runs'),
  ],
);

export const releaseLogChunks = pgTable(
  'release_log_chunks',
  {
    tenantId: tenantId(),
    stepRunId: ref('step_run_id').notNull(),
    seq: integer('seq').notNull(),
    taskId: ref('task_id').notNull(),
    text: text('text').notNull(),
  },
  (t) => [
    // a chunk sent twice (QoS 1 redelivery, a reconnect) is stored once
    primaryKey({ columns: [t.tenantId, t.stepRunId, t.seq] }),
    index('release_log_chunks_task_idx').on(t.tenantId, t.taskId),
    tenantPolicy('release_log_chunks'),
  ],
);

export const releaseUserProjects = pgTable(
  'release_user_projects',
  {
    tenantId: tenantId(),
    id: id(),
    userId: ref('user_id').notNull(),
    projectId: ref('project_id').notNull(),
    /** null: every environment of the project */
    envId: ref('env_id'),
    level: varchar('level', { length: 16 }).notNull(),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('release_user_projects_key').on(t.tenantId, t.userId, t.projectId, sql`coalesce(${t.envId}, 0)`),
    tenantPolicy('release_user_projects'),
  ],
);
