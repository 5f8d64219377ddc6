import type { Language } from './errors';
import { abilityStatuses, clientStatuses, permissionLevels, taskStatuses } from './release';

type Label = { zh: string; en: string };

/**
 * The words for each code the release routes send (statuses, permission levels), in both languages: a
 * page shows these, never the code itself. release-labels.test.ts fails on a code without its words.
 */
export const releaseLabels = {
  abilityStatus: {
    DRAFT: { zh: '草稿', en: 'Draft' },
    PUBLISHED: { zh: '已发布', en: 'Published' },
    DEPRECATED: { zh: '已弃用', en: 'Deprecated' },
  },
  clientStatus: {
    PENDING: { zh: '待批准', en: 'Pending' },
    ACTIVE: { zh: '已启用', en: 'Active' },
    DISABLED: { zh: '已停用', en: 'Disabled' },
    REVOKED: { zh: '已吊销', en: 'Revoked' },
  },
  taskStatus: {
    PENDING_APPROVAL: { zh: '待审批', en: 'Awaiting approval' },
    QUEUED: { zh: '排队中', en: 'Queued' },
    RUNNING: { zh: '执行中', en: 'Running' },
    SUCCEEDED: { zh: '成功', en: 'Succeeded' },
    FAILED: { zh: '失败', en: 'Failed' },
    PARTIAL: { zh: '部分成功', en: 'Partly succeeded' },
    CANCELLING: { zh: '取消中', en: 'Cancelling' },
    CANCELED: { zh: '已取消', en: 'Cancelled' },
    TIMED_OUT: { zh: '已超时', en: 'Timed out' },
    LOST: { zh: '已失联', en: 'Lost' },
    REJECTED: { zh: '已驳回', en: 'Rejected' },
  },
  permissionLevel: {
    VIEWER: { zh: '查看者', en: 'Viewer' },
    OPERATOR: { zh: '操作者', en: 'Operator' },
    APPROVER: { zh: '审批者', en: 'Approver' },
    MAINTAINER: { zh: '维护者', en: 'Maintainer' },
  },
} satisfies {
  abilityStatus: Record<(typeof abilityStatuses)[number], Label>;
  clientStatus: Record<(typeof clientStatuses)[number], Label>;
  taskStatus: Record<(typeof taskStatuses)[number], Label>;
  permissionLevel: Record<(typeof permissionLevels)[number], Label>;
};

/** The codes each table labels, as the contract lists them (what the test walks). */
export const releaseCodes = {
  abilityStatus: abilityStatuses,
  clientStatus: clientStatuses,
  taskStatus: taskStatuses,
  permissionLevel: permissionLevels,
} as const;

/** The words for a release code in a language; an unknown code (a newer server's) stays as it is. */
export function releaseLabel(kind: keyof typeof releaseLabels, code: string, lang: Language | string): string {
  const label = (releaseLabels[kind] as Record<string, Label | undefined>)[code];
  if (!label) return code;
  return lang === 'zh-CN' ? label.zh : label.en;
}
