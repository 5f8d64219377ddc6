import { z } from 'zod';
import { abilityStatuses, clientStatuses, permissionLevels, taskKinds, taskStatuses } from './release';

/**
 * What the `/api/release/*` routes answer (the `data` of the envelope): the rows as stored, without the
 * tenant, secrets and agents' secret hashes. The response serializer writes only the fields named here,
 * so a field the web app reads is named here. Times are ISO strings.
 */

const id = z.number().int();
const time = z.string();
/** Who made and last changed a row, and when. */
const audit = { createBy: z.string().nullable(), createTime: time, updateBy: z.string().nullable(), updateTime: time };

export const abilitySchema = z.object({
  id,
  key: z.string(),
  version: z.number().int(),
  name: z.string(),
  runtime: z.string(),
  body: z.string(),
  paramsSchema: z.record(z.string(), z.unknown()),
  timeoutSec: z.number().int(),
  sha256: z.string(),
  status: z.enum(abilityStatuses),
  ...audit,
});

/** A secret variable comes back with its name only (`value: null`). */
export const envVariableSchema = z.object({ name: z.string(), value: z.string().nullable(), secret: z.boolean() });
export const envSchema = z.object({
  id,
  key: z.string(),
  name: z.string(),
  protected: z.boolean(),
  requiredApprovals: z.number().int(),
  variables: z.array(envVariableSchema),
  ...audit,
});

export const projectSchema = z.object({
  id,
  key: z.string(),
  name: z.string(),
  artifactSource: z.string().nullable(),
  keepReleases: z.number().int(),
  ...audit,
});

const stepShape = {
  abilityId: id,
  params: z.record(z.string(), z.string()),
  labels: z.array(z.string()),
  timeoutSec: z.number().int().nullable(),
  retries: z.number().int(),
};
/** A step as stored in its process, every key it was stored with. */
export const processStepSchema = z.looseObject(stepShape);
export const processSchema = z.object({ id, projectId: id, name: z.string(), steps: z.array(processStepSchema), ...audit });

export const clientSchema = z.object({
  id,
  hostname: z.string(),
  os: z.string(),
  agentVersion: z.string(),
  labels: z.array(z.string()),
  maxConcurrency: z.number().int(),
  status: z.enum(clientStatuses),
  presence: z.enum(['online', 'offline']),
  lastSeenAt: time.nullable(),
  ...audit,
});
export const enrolTokenSchema = z.object({ token: z.string(), expiresAt: time });
/** What an enrolled agent signs in to the broker with. */
export const enrolledSchema = z.object({
  id,
  tenantId: id,
  secret: z.string(),
  username: z.string(),
  broker: z.string().nullable(),
  brokerPort: z.number().int().nullable(),
});

/** A grant, with the names of its user (name and account), project and environment (none: every environment). */
export const userProjectItemSchema = z.object({
  id,
  userId: id,
  projectId: id,
  envId: id.nullable(),
  level: z.enum(permissionLevels),
  userName: z.string().nullable(),
  projectName: z.string().nullable(),
  envName: z.string().nullable(),
  ...audit,
});

/** A task's step as frozen at creation, without the ability's body (the detail shows names and versions). */
export const taskStepSchema = z.looseObject({
  ...stepShape,
  abilityKey: z.string(),
  abilityVersion: z.number().int(),
  name: z.string(),
  sha256: z.string(),
});
export const taskSchema = z.object({
  id,
  projectId: id,
  envId: id,
  processId: id,
  version: z.string(),
  kind: z.enum(taskKinds),
  status: z.enum(taskStatuses),
  steps: z.array(taskStepSchema),
  clientId: id.nullable(),
  targets: z.array(id),
  onlyClients: z.array(id).nullable(),
  currentStep: z.number().int(),
  exitCode: z.number().int().nullable(),
  createdByUser: id,
  createdByAccount: id,
  approvals: z.array(z.number().int()),
  requiredApprovals: z.number().int(),
  leaseUntil: time.nullable(),
  startedAt: time.nullable(),
  finishedAt: time.nullable(),
  ...audit,
});
/** The names a task is shown by (null for a record gone since); hosts by agent id. */
const taskNames = {
  projectName: z.string().nullable(),
  envName: z.string().nullable(),
  processName: z.string().nullable(),
  hostNames: z.record(z.string(), z.string()),
};
export const taskListItemSchema = taskSchema.extend(taskNames);
export const stepRunSchema = z.object({
  id,
  taskId: id,
  stepIndex: z.number().int(),
  clientId: id,
  status: z.string(),
  exitCode: z.number().int().nullable(),
  logBytes: z.number().int(),
  truncated: z.boolean(),
  startedAt: time,
  finishedAt: time.nullable(),
});
/** A task's detail: its step runs, and why the caller may not approve it now (a message key) or null. */
export const taskDetailSchema = taskListItemSchema.extend({ stepRuns: z.array(stepRunSchema), approveRefusal: z.string().nullable() });
export const taskLogSchema = z.object({ text: z.string() });

export type ReleaseAbility = z.output<typeof abilitySchema>;
export type ReleaseEnv = z.output<typeof envSchema>;
export type ReleaseProject = z.output<typeof projectSchema>;
export type ReleaseProcess = z.output<typeof processSchema>;
export type ReleaseClient = z.output<typeof clientSchema>;
export type ReleaseGrant = z.output<typeof userProjectItemSchema>;
/** A task as listed; its detail adds the step runs and why the caller may not approve it. */
export type ReleaseTask = z.output<typeof taskListItemSchema> &
  Partial<Pick<z.output<typeof taskDetailSchema>, 'stepRuns' | 'approveRefusal'>>;
