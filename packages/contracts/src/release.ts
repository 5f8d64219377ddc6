import { z } from 'zod';
import { VARIABLE_NAME } from './release-env';

/**
 * Release management: the request bodies of `/api/release/*` and the messages between the server and
 * its agents over MQTT (`rm/{tenant}/c/{client}/down` and `…/up/{kind}`).
 */

export const abilityStatuses = ['DRAFT', 'PUBLISHED', 'DEPRECATED'] as const;
export const clientStatuses = ['PENDING', 'ACTIVE', 'DISABLED', 'REVOKED'] as const;
export const taskStatuses = [
  'PENDING_APPROVAL',
  'QUEUED',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'PARTIAL',
  'CANCELLING',
  'CANCELED',
  'TIMED_OUT',
  'LOST',
  'REJECTED',
] as const;
export type TaskStatus = (typeof taskStatuses)[number];
/** States a task never leaves. */
export const finishedTaskStatuses: readonly TaskStatus[] = ['SUCCEEDED', 'FAILED', 'PARTIAL', 'CANCELED', 'TIMED_OUT', 'LOST', 'REJECTED'];
/** How a task came to be: a deployment, a retry of failed hosts, or a rollback to an earlier version. */
export const taskKinds = ['DEPLOY', 'RETRY', 'ROLLBACK'] as const;
export type TaskKind = (typeof taskKinds)[number];
export const permissionLevels = ['VIEWER', 'OPERATOR', 'APPROVER', 'MAINTAINER'] as const;
export type PermissionLevel = (typeof permissionLevels)[number];
export const levelRank = (level: PermissionLevel | null): number => (level ? permissionLevels.indexOf(level) + 1 : 0);

const key = z
  .string()
  .trim()
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'key.invalid');
const name = z.string().trim().min(1).max(100);
/**
 * A variable or parameter name: a plain identifier. The step sees it as `ATRIUM_VAR_{name}` (release-env.ts),
 * so no name a user picks can be one a shell, the loader or an interpreter reads (PATH, BASH_ENV, LD_PRELOAD…).
 */
const envName = z.string().regex(VARIABLE_NAME);
const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const abilityCreateSchema = z.object({
  key,
  name,
  runtime: z.literal('shell').default('shell'),
  body: z
    .string()
    .min(1)
    .max(64 * 1024),
  paramsSchema: z.record(z.string(), z.unknown()).default({}),
  timeoutSec: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .default(600),
});
export const abilityUpdateSchema = abilityCreateSchema.omit({ key: true });

export const variableSchema = z.object({ name: envName, value: z.string().max(8192), secret: z.boolean().default(false) });

/** An environment's variables: each name once (a task would otherwise get whichever came last). */
const uniqueNames = (variables: { name: string }[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  variables.forEach((v, i) => {
    if (seen.has(v.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'value.duplicate' });
    seen.add(v.name);
  });
};
export const envCreateSchema = z.object({
  key,
  name,
  protected: z.boolean().default(false),
  requiredApprovals: z.number().int().min(1).max(10).default(1),
  variables: z.array(variableSchema).max(100).superRefine(uniqueNames).default([]),
});
/**
 * On update a secret variable sent without a value keeps the stored one (the API never shows it): its
 * value left out, or null as the API answers it, so a row read can be sent back as it is.
 */
export const envUpdateSchema = envCreateSchema.omit({ key: true }).extend({
  variables: z
    .array(variableSchema.extend({ value: z.string().max(8192).nullish() }))
    .max(100)
    .superRefine(uniqueNames)
    .default([]),
});

export const projectCreateSchema = z.object({
  key,
  name,
  artifactSource: z.string().max(500).nullish(),
  keepReleases: z.number().int().min(1).max(100).default(5),
});
export const projectUpdateSchema = projectCreateSchema.omit({ key: true });

export const stepSchema = z.object({
  abilityId: id,
  params: z.record(envName, z.string().max(4096)).default({}),
  labels: z.array(z.string().max(64)).max(20).default([]),
  timeoutSec: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .nullish(),
  retries: z.number().int().min(0).max(5).default(0),
});
export const processCreateSchema = z.object({ name, projectId: id, steps: z.array(stepSchema).min(1).max(50) });
export const processUpdateSchema = processCreateSchema.omit({ projectId: true });

export const enrolSchema = z.object({
  token: z.string().min(10).max(200),
  hostname: z.string().trim().min(1).max(255),
  os: z.string().max(64).default(''),
  agentVersion: z.string().max(32).default(''),
  labels: z.array(z.string().max(64)).max(20).default([]),
  maxConcurrency: z.number().int().min(1).max(16).default(1),
});
export const clientUpdateSchema = z.object({
  labels: z.array(z.string().max(64)).max(20),
  maxConcurrency: z.number().int().min(1).max(16),
});

export const taskCreateSchema = z.object({ projectId: id, envId: id, processId: id, version: z.string().trim().min(1).max(100) });
export const userProjectSchema = z.object({ userId: id, projectId: id, envId: id.nullish(), level: z.enum(permissionLevels) });

export const idParam = z.object({ id });

// ---- agent protocol (payloads are JSON) -----------------------------------------------------------

/**
 * down: run one step of a task. Params and variables arrive as environment variables named
 * `ATRIUM_VAR_{name}` (the agent adds the prefix: release-env.ts), never in argv.
 */
export type AgentRunCommand = {
  type: 'run';
  taskId: number;
  stepRunId: number;
  stepIndex: number;
  /** the task's version: ATRIUM_VERSION */
  version: string;
  name: string;
  body: string;
  sha256: string;
  timeoutSec: number;
  /** the environment's variables and the step's parameters, by their names without the prefix */
  variables: Record<string, string>;
  /** values to mask in the output */
  secrets: string[];
  /** how often the agent sends a heartbeat while it runs something */
  heartbeatMs: number;
  /** the per-step log cap in bytes */
  logCapBytes: number;
};
export type AgentCancelCommand = { type: 'cancel'; stepRunId: number };
export type AgentCommand = AgentRunCommand | AgentCancelCommand;

/** up/status */
export type AgentStatus =
  | { stepRunId: number; state: 'started' }
  | {
      stepRunId: number;
      state: 'finished';
      exitCode: number | null;
      signal: string | null;
      reason: 'exit' | 'canceled' | 'timeout' | 'error';
    };
/** up/log: chunks carry a sequence number per step run; the server stores each once, in order. */
export type AgentLogChunk = { stepRunId: number; seq: number; text: string };
/** up/hb and up/hello: the step runs the agent has in flight. */
export type AgentHeartbeat = { runs: number[]; agentVersion?: string };
