import { mfaMethods, mfaPolicies, sexes, statuses, userTypes } from './auth';
import { approvalResults, approvalStages, certificateTypes, certificationAccountTypes, certificationStatuses } from './centre';
import { analysisDatasets, analysisGranularities } from './dashboard';
import { activityStatuses, activityTypes } from './erp/activity';
import { saleStatuses } from './erp/sale';
import { ledgerKinds } from './erp/stock';
import type { Language } from './errors';
import { type audioModes, audioProfiles, channelTypes, resolutions, videoModes, videoProfiles } from './forms';
import { serviceKinds, serviceStates } from './list/service';
import { setContentTypes, setFilterTypes } from './list/set';
import { shelves } from './mall/goods';
import { printerKinds, printerVendors, printJobStatuses, printTriggers } from './mall/printer';
import { printerStates } from './printer-protocol';
import { noticeScopes, notificationTypes } from './realtime';
import { abilityStatuses, clientStatuses, permissionLevels, taskKinds, taskStatuses } from './release';
import { ssoPolicies } from './sso';
import { auditResults, loginResults } from './system/common';
import { menuTypes } from './system/menu';
import { dataScopes } from './system/role';

export type Label = { zh: string; en: string };
type Labels<Codes extends readonly string[]> = Record<Codes[number], Label>;

/**
 * The words for every code the server sends (statuses, kinds, types, levels), in both languages, by kind:
 * a page or an export shows these, never the code itself. A kind is what the codes mean, not where they
 * are: the same codes may have two kinds (`status` and `setStatus` are both '0'/'1'). labels.test.ts
 * walks the contracts' schemas and fails on an enum no kind labels.
 */
export const codeLabels = {
  // release management
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
  taskKind: {
    DEPLOY: { zh: '部署', en: 'Deploy' },
    RETRY: { zh: '重试', en: 'Retry' },
    ROLLBACK: { zh: '回滚', en: 'Rollback' },
  },
  permissionLevel: {
    VIEWER: { zh: '查看者', en: 'Viewer' },
    OPERATOR: { zh: '操作者', en: 'Operator' },
    APPROVER: { zh: '审批者', en: 'Approver' },
    MAINTAINER: { zh: '维护者', en: 'Maintainer' },
  },

  // users and the system pages
  status: {
    '0': { zh: '正常', en: 'Normal' },
    '1': { zh: '停用', en: 'Disabled' },
  },
  sex: {
    '0': { zh: '男', en: 'Male' },
    '1': { zh: '女', en: 'Female' },
    '2': { zh: '未知', en: 'Unknown' },
  },
  userType: {
    '00': { zh: '超级管理员', en: 'Super admin' },
    '01': { zh: '系统用户', en: 'System user' },
    '02': { zh: '普通用户', en: 'Ordinary user' },
  },
  dataScope: {
    '1': { zh: '全部数据', en: 'All data' },
    '2': { zh: '自定义部门', en: 'Custom departments' },
    '3': { zh: '本部门', en: 'Own department' },
    '4': { zh: '本部门及以下', en: 'Department and below' },
    '5': { zh: '仅本人', en: 'Self only' },
  },
  menuType: {
    dir: { zh: '目录', en: 'Directory' },
    menu: { zh: '菜单', en: 'Menu' },
    button: { zh: '按钮', en: 'Button' },
    link: { zh: '外链', en: 'External link' },
  },
  auditResult: {
    success: { zh: '成功', en: 'Success' },
    failure: { zh: '失败', en: 'Failure' },
  },
  loginResult: {
    success: { zh: '登录成功', en: 'Signed in' },
    failure: { zh: '登录失败', en: 'Failed' },
    locked: { zh: '账号锁定', en: 'Locked' },
    logout: { zh: '退出登录', en: 'Signed out' },
    register: { zh: '注册', en: 'Registered' },
    mfa: { zh: '密码正确，待二次验证', en: 'Password right, second factor pending' },
  },
  mfaMethod: {
    totp: { zh: '验证器动态码', en: 'Authenticator app' },
    webauthn: { zh: '通行密钥', en: 'Passkey' },
    recovery: { zh: '恢复码', en: 'Recovery code' },
  },
  mfaPolicy: {
    optional: { zh: '可选', en: 'Optional' },
    admins: { zh: '管理员必须', en: 'Required for administrators' },
    everyone: { zh: '所有人必须', en: 'Required for everyone' },
  },
  ssoPolicy: {
    password_and_sso: { zh: '密码或单点登录', en: 'Password or single sign-on' },
    sso_only: { zh: '仅单点登录（超级管理员仍可用密码）', en: 'Single sign-on only (super admins keep their password)' },
  },
  notificationType: {
    message: { zh: '消息', en: 'Message' },
    notice: { zh: '通知', en: 'Notice' },
    todo: { zh: '待办', en: 'To-do' },
  },
  noticeScope: {
    tenant: { zh: '全体成员', en: 'Everyone' },
    role: { zh: '角色', en: 'Role' },
    dept: { zh: '部门及下级', en: 'Department and below' },
    users: { zh: '指定用户', en: 'Chosen users' },
  },

  // ERP
  saleStatus: {
    draft: { zh: '草稿', en: 'Draft' },
    confirmed: { zh: '已确认', en: 'Confirmed' },
    shipped: { zh: '已发货', en: 'Shipped' },
    completed: { zh: '已完成', en: 'Completed' },
    cancelled: { zh: '已取消', en: 'Cancelled' },
  },
  activityType: {
    discount: { zh: '折扣', en: 'Discount' },
    reduction: { zh: '满减', en: 'Spend & save' },
  },
  activityStatus: {
    Y: { zh: '启用', en: 'Enabled' },
    N: { zh: '停用', en: 'Disabled' },
  },
  ledgerKind: {
    adjust: { zh: '调整', en: 'Adjustment' },
    sale: { zh: '销售出库', en: 'Sale' },
    cancel: { zh: '取消退回', en: 'Cancellation' },
  },

  // mall and printing
  shelf: {
    on: { zh: '已上架', en: 'On shelf' },
    off: { zh: '已下架', en: 'Off shelf' },
  },
  printerVendor: {
    mqtt: { zh: '内置 MQTT', en: 'Built-in MQTT' },
    simulator: { zh: '模拟打印机', en: 'Simulator' },
    feie: { zh: '飞鹅', en: 'Feie' },
    xpyun: { zh: '芯烨云', en: 'Xprinter cloud' },
    yilianyun: { zh: '易联云', en: 'Yilianyun' },
    sunmi: { zh: '商米', en: 'Sunmi' },
  },
  printerKind: {
    receipt: { zh: '小票', en: 'Receipt' },
    label: { zh: '标签', en: 'Label' },
  },
  printTrigger: {
    'sale.confirmed': { zh: '销售单确认时', en: 'Sales order confirmed' },
  },
  printerState: {
    online: { zh: '在线', en: 'Online' },
    offline: { zh: '离线', en: 'Offline' },
    'paper-out': { zh: '缺纸', en: 'Out of paper' },
  },
  printJobStatus: {
    PENDING: { zh: '待发送', en: 'Pending' },
    SENT: { zh: '已发送', en: 'Sent' },
    PRINTED: { zh: '已打印', en: 'Printed' },
    FAILED: { zh: '失败', en: 'Failed' },
    EXPIRED: { zh: '已过期', en: 'Expired' },
    CANCELLED: { zh: '已取消', en: 'Cancelled' },
    UNKNOWN: { zh: '结果未知', en: 'Unknown' },
  },

  // dashboard
  analysisGranularity: {
    day: { zh: '按日', en: 'Daily' },
    week: { zh: '按周', en: 'Weekly' },
    month: { zh: '按月', en: 'Monthly' },
  },
  analysisDataset: {
    sales: { zh: '销售趋势', en: 'Sales trend' },
    category: { zh: '分类销售占比', en: 'Sales by category' },
    warehouse: { zh: '仓库销售额', en: 'Sales by warehouse' },
    members: { zh: '会员增长', en: 'Member growth' },
    topMembers: { zh: '消费排行（会员）', en: 'Top members' },
    activities: { zh: '活动效果', en: 'Activity effect' },
    matrix: { zh: '分类 × 仓库 销售热力图', en: 'Sales heat map: category × warehouse' },
  },

  // list pages
  serviceKind: {
    quality: { zh: '内容质检', en: 'Content quality' },
    content: { zh: '内容服务', en: 'Content services' },
    rules: { zh: '规则预置', en: 'Preset rules' },
  },
  serviceState: {
    opened: { zh: '已开通', en: 'Opened' },
    expired: { zh: '已过期', en: 'Expired' },
    cancelled: { zh: '已取消', en: 'Cancelled' },
    renewed: { zh: '已续费', en: 'Renewed' },
  },
  setStatus: {
    '0': { zh: '已上线', en: 'Online' },
    '1': { zh: '已下线', en: 'Offline' },
  },
  setContentType: {
    imageText: { zh: '图文', en: 'Image and text' },
    horizontalVideo: { zh: '横版短视频', en: 'Horizontal video' },
    verticalVideo: { zh: '竖版短视频', en: 'Vertical video' },
  },
  setFilterType: {
    artificial: { zh: '人工筛选', en: 'Manual' },
    rules: { zh: '规则筛选', en: 'By rules' },
  },

  // centre: approvals and certification
  approvalStage: {
    commit: { zh: '提交', en: 'Commit' },
    approval: { zh: '审批', en: 'Approval' },
    finish: { zh: '完成', en: 'Finish' },
  },
  approvalResult: {
    pass: { zh: '通过', en: 'Pass' },
    auditing: { zh: '审核中', en: 'Auditing' },
    rejected: { zh: '驳回', en: 'Rejected' },
  },
  certificationAccountType: {
    enterprise: { zh: '企业账号', en: 'Enterprise' },
    individual: { zh: '个体工商户', en: 'Sole proprietor' },
  },
  certificateType: {
    idCard: { zh: '身份证', en: 'ID card' },
    passport: { zh: '护照', en: 'Passport' },
    other: { zh: '其他证件', en: 'Other' },
  },
  certificationStatus: {
    auditing: { zh: '审核中', en: 'Under review' },
    passed: { zh: '已通过', en: 'Passed' },
    rejected: { zh: '未通过', en: 'Rejected' },
    withdrawn: { zh: '已撤回', en: 'Withdrawn' },
  },

  // forms
  channelType: {
    web: { zh: '网页域名', en: 'Web domain' },
    api: { zh: 'API 域名', en: 'API domain' },
  },
  /** Video's and audio's match mode: the same two codes, the same words. */
  matchMode: {
    custom: { zh: '自定义', en: 'Custom' },
    standard: { zh: '标准', en: 'Standard' },
  },
  // technical names, the same in both languages (namesKeptAsTheyAre)
  resolution: {
    '720P': { zh: '720P', en: '720P' },
    '1080P': { zh: '1080P', en: '1080P' },
    '2K': { zh: '2K', en: '2K' },
    '4K': { zh: '4K', en: '4K' },
  },
  videoProfile: {
    baseline: { zh: 'Baseline', en: 'Baseline' },
    main: { zh: 'Main', en: 'Main' },
    high: { zh: 'High', en: 'High' },
  },
  audioProfile: {
    LC: { zh: 'LC', en: 'LC' },
    'HE-AAC': { zh: 'HE-AAC', en: 'HE-AAC' },
    'HE-AACv2': { zh: 'HE-AACv2', en: 'HE-AACv2' },
  },
} satisfies {
  abilityStatus: Labels<typeof abilityStatuses>;
  clientStatus: Labels<typeof clientStatuses>;
  taskStatus: Labels<typeof taskStatuses>;
  taskKind: Labels<typeof taskKinds>;
  permissionLevel: Labels<typeof permissionLevels>;
  status: Labels<typeof statuses>;
  sex: Labels<typeof sexes>;
  userType: Labels<typeof userTypes>;
  dataScope: Labels<typeof dataScopes>;
  menuType: Labels<typeof menuTypes>;
  auditResult: Labels<typeof auditResults>;
  loginResult: Labels<typeof loginResults>;
  mfaMethod: Labels<typeof mfaMethods>;
  mfaPolicy: Labels<typeof mfaPolicies>;
  ssoPolicy: Labels<typeof ssoPolicies>;
  notificationType: Labels<typeof notificationTypes>;
  noticeScope: Labels<typeof noticeScopes>;
  saleStatus: Labels<typeof saleStatuses>;
  activityType: Labels<typeof activityTypes>;
  activityStatus: Labels<typeof activityStatuses>;
  ledgerKind: Labels<typeof ledgerKinds>;
  shelf: Labels<typeof shelves>;
  printerVendor: Labels<typeof printerVendors>;
  printerKind: Labels<typeof printerKinds>;
  printTrigger: Labels<typeof printTriggers>;
  printerState: Labels<typeof printerStates>;
  printJobStatus: Labels<typeof printJobStatuses>;
  analysisGranularity: Labels<typeof analysisGranularities>;
  analysisDataset: Labels<typeof analysisDatasets>;
  serviceKind: Labels<typeof serviceKinds>;
  serviceState: Labels<typeof serviceStates>;
  setStatus: Labels<typeof statuses>;
  setContentType: Labels<typeof setContentTypes>;
  setFilterType: Labels<typeof setFilterTypes>;
  approvalStage: Labels<typeof approvalStages>;
  approvalResult: Labels<typeof approvalResults>;
  certificationAccountType: Labels<typeof certificationAccountTypes>;
  certificateType: Labels<typeof certificateTypes>;
  certificationStatus: Labels<typeof certificationStatuses>;
  channelType: Labels<typeof channelTypes>;
  matchMode: Labels<typeof videoModes> & Labels<typeof audioModes>;
  resolution: Labels<typeof resolutions>;
  videoProfile: Labels<typeof videoProfiles>;
  audioProfile: Labels<typeof audioProfiles>;
};

export type CodeKind = keyof typeof codeLabels;

/** The codes each kind labels, as the contracts list them (what the test checks the words of). */
export const labelledCodes = {
  abilityStatus: abilityStatuses,
  clientStatus: clientStatuses,
  taskStatus: taskStatuses,
  taskKind: taskKinds,
  permissionLevel: permissionLevels,
  status: statuses,
  sex: sexes,
  userType: userTypes,
  dataScope: dataScopes,
  menuType: menuTypes,
  auditResult: auditResults,
  loginResult: loginResults,
  mfaMethod: mfaMethods,
  mfaPolicy: mfaPolicies,
  ssoPolicy: ssoPolicies,
  notificationType: notificationTypes,
  noticeScope: noticeScopes,
  saleStatus: saleStatuses,
  activityType: activityTypes,
  activityStatus: activityStatuses,
  ledgerKind: ledgerKinds,
  shelf: shelves,
  printerVendor: printerVendors,
  printerKind: printerKinds,
  printTrigger: printTriggers,
  printerState: printerStates,
  printJobStatus: printJobStatuses,
  analysisGranularity: analysisGranularities,
  analysisDataset: analysisDatasets,
  serviceKind: serviceKinds,
  serviceState: serviceStates,
  setStatus: statuses,
  setContentType: setContentTypes,
  setFilterType: setFilterTypes,
  approvalStage: approvalStages,
  approvalResult: approvalResults,
  certificationAccountType: certificationAccountTypes,
  certificateType: certificateTypes,
  certificationStatus: certificationStatuses,
  channelType: channelTypes,
  matchMode: videoModes,
  resolution: resolutions,
  videoProfile: videoProfiles,
  audioProfile: audioProfiles,
} as const satisfies Record<CodeKind, readonly string[]>;

/** Kinds whose codes are technical names, written the same in both languages (no Chinese word for them). */
export const namesKeptAsTheyAre: readonly CodeKind[] = ['resolution', 'videoProfile', 'audioProfile'];

/** The words for a code of a kind in a language; an unknown code (a newer server's) stays as it is. */
export function codeLabel(kind: CodeKind, code: string, lang: Language | string): string {
  const label = (codeLabels[kind] as Record<string, Label | undefined>)[code];
  if (!label) return code;
  return lang === 'zh-CN' ? label.zh : label.en;
}

/** A kind's codes as select options, in its words: `{ label, value }` in the contract's order. */
export function codeOptions(kind: CodeKind, lang: Language | string): { label: string; value: string }[] {
  return labelledCodes[kind].map((code) => ({ label: codeLabel(kind, code, lang), value: code }));
}
