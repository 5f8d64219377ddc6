import { z } from 'zod';
import { defineResource, textFilter } from './resource';

/**
 * The basic profile's parameter approvals (admin) and the user centre (any signed-in user, their own
 * rows only): enterprise certifications, recent activity, the workbench and its pinned shortcuts.
 */

// ---- parameter approval (spec §4: commit → approval → finish; records pass or auditing) ----

export const approvalStages = ['commit', 'approval', 'finish'] as const;
export const approvalResults = ['pass', 'auditing', 'rejected'] as const;
/** What an approver decides: a result other than `auditing`. */
export const approvalDecisions = ['pass', 'rejected'] as const;

export const approvalInputSchema = z.object({
  title: z.string().trim().min(1).max(50),
  parameter: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .regex(/^[A-Za-z][\w.-]*$/, 'chars.parameter'),
  oldValue: z.string().trim().max(200).default(''),
  newValue: z.string().trim().min(1).max(200),
  reason: z.string().trim().max(500).default(''),
});
export type ApprovalInput = z.input<typeof approvalInputSchema>;

export const approvalRecordSchema = z.object({
  id: z.number().int(),
  stage: z.enum(approvalStages),
  result: z.enum(approvalResults),
  operator: z.string().nullable(),
  remark: z.string(),
  createTime: z.string(),
});
export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;

export const approvalSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  title: z.string(),
  parameter: z.string(),
  oldValue: z.string(),
  newValue: z.string(),
  reason: z.string(),
  stage: z.enum(approvalStages),
  createBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  records: z.array(approvalRecordSchema),
});
export type Approval = z.infer<typeof approvalSchema>;

export const approvalDecisionSchema = z.object({
  result: z.enum(approvalDecisions),
  remark: z.string().trim().max(200).default(''),
});

export const approvalResource = defineResource({
  name: 'approval',
  domain: 'profile',
  item: approvalSchema,
  create: approvalInputSchema,
  filters: z.object({ title: textFilter(50), stage: z.enum(approvalStages).optional() }),
  sortable: ['createTime', 'number'],
  actions: ['list', 'query', 'create'],
});

// ---- enterprise certification (spec §3; a pending request can be withdrawn, spec §4) ----

export const certificationAccountTypes = ['enterprise', 'individual'] as const;
export const certificateTypes = ['idCard', 'passport', 'other'] as const;
export const certificationStatuses = ['auditing', 'passed', 'rejected', 'withdrawn'] as const;
/** What a review decides: a status other than `auditing` and `withdrawn`. */
export const certificationDecisions = ['passed', 'rejected'] as const;

export const certificationInputSchema = z.object({
  accountType: z.enum(certificationAccountTypes),
  legalPerson: z.string().trim().min(1).max(30),
  certificateType: z.enum(certificateTypes),
  certificateNumber: z
    .string()
    .trim()
    .min(4)
    .max(30)
    .regex(/^[A-Za-z0-9]+$/, 'chars.alnum'),
  enterpriseName: z.string().trim().min(1).max(100),
  // the unified social credit code: 18 digits and capital letters (older organisation codes: 9)
  organisationCode: z
    .string()
    .trim()
    .regex(/^([0-9A-Z]{18}|[0-9A-Z]{8}-?[0-9A-Z])$/, 'chars.orgCode'),
});
export type CertificationInput = z.infer<typeof certificationInputSchema>;

export const certificationSchema = certificationInputSchema.extend({
  id: z.number().int(),
  status: z.enum(certificationStatuses),
  /** who approved or rejected it (a platform administrator), when, and a rejection's reason */
  reviewBy: z.string().nullable(),
  reviewTime: z.string().nullable(),
  reviewReason: z.string(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type Certification = z.infer<typeof certificationSchema>;

/** A platform administrator's review: approve, or reject with a reason the applicant reads. */
export const certificationReviewSchema = z
  .object({
    result: z.enum(certificationDecisions),
    reason: z.string().trim().max(200).default(''),
  })
  .superRefine((value, ctx) => {
    if (value.result === 'rejected' && value.reason === '')
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'certification.reasonRequired' });
  });
export type CertificationReview = z.input<typeof certificationReviewSchema>;

/** A request as the reviewer sees it: the applicant's account and name beside it. */
export const certificationRequestSchema = certificationSchema.extend({ account: z.string(), applicant: z.string() });
export type CertificationRequest = z.infer<typeof certificationRequestSchema>;

/**
 * The review queue of the tenant the platform administrator is signed in to (ADR 039): the super admin
 * only, whatever a tenant role holds.
 */
export const certificationReviewResource = defineResource({
  name: 'certification',
  domain: 'system',
  item: certificationRequestSchema,
  create: certificationInputSchema,
  filters: z.object({ status: z.enum(certificationStatuses).optional() }),
  sortable: ['createTime'],
  actions: ['list'],
  superAdminOnly: true,
});

// ---- recent activity and the workbench ----

export const userActivitySchema = z.object({
  operations: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      action: z.string(),
      target: z.string().nullable(),
      ok: z.boolean(),
      time: z.string(),
    }),
  ),
  logins: z.array(
    z.object({ id: z.number().int(), ip: z.string().nullable(), browser: z.string().nullable(), ok: z.boolean(), time: z.string() }),
  ),
});
export type UserActivity = z.infer<typeof userActivitySchema>;

/** Shortcuts a user may pin: route names of the catalogue, in order. */
export const MAX_PINS = 12;
export const pinsSchema = z.object({
  pins: z
    .array(
      z
        .string()
        .max(40)
        .regex(/^[A-Za-z0-9]+$/),
    )
    .max(MAX_PINS)
    .refine((pins) => new Set(pins).size === pins.length, { message: 'duplicate' }),
});

export const workbenchSchema = z.object({
  todos: z.object({
    unreadNotices: z.number().int(),
    unreadMessages: z.number().int(),
    unreadTodos: z.number().int(),
    /** parameter approvals waiting, for someone who may decide them (null otherwise) */
    approvals: z.number().int().nullable(),
    /** release tasks waiting for this user's approval */
    releaseApprovals: z.number().int(),
  }),
  tasks: z.array(
    z.object({
      id: z.number().int(),
      project: z.string(),
      env: z.string(),
      version: z.string(),
      status: z.string(),
      createTime: z.string(),
    }),
  ),
  orders: z.array(
    z.object({ id: z.number().int(), orderNo: z.string(), status: z.string(), totalAmount: z.number(), createTime: z.string() }),
  ),
  pins: z.array(z.string()),
});
export type Workbench = z.infer<typeof workbenchSchema>;

// ---- the user's own sessions (security settings: sign out elsewhere) ----

export const ownSessionSchema = z.object({
  id: z.number().int(),
  tenantCode: z.string(),
  tenantName: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  deviceType: z.string().nullable(),
  createTime: z.string(),
  lastSeenAt: z.string(),
  /** the session this request was made with */
  current: z.boolean(),
});
export type OwnSession = z.infer<typeof ownSessionSchema>;
