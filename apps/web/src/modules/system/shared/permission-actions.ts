import type { TFunction } from 'i18next';
import { registerMessages } from '../../../crud/messages';

// The action part of a permission (`system:user:resetPwd`), as a role's menu grant and the menu
// catalogue show a button: the catalogue stores the action's code name as the button's title.
const zh = {
  list: '列表',
  query: '查看',
  create: '新增',
  update: '修改',
  delete: '删除',
  status: '启用/停用',
  export: '导出',
  import: '导入',
  resetPwd: '重置密码',
  grant: '分配角色',
  forceLogout: '强制下线',
  open: '开通',
  cancel: '取消',
  renew: '续费',
  approve: '审批',
  publish: '发布',
  deprecate: '弃用',
  enrol: '注册',
  disable: '停用',
  revoke: '吊销',
  adjust: '调整库存',
  stockSettings: '库存设置',
  confirm: '确认',
  ship: '发货',
  complete: '完成',
  print: '打印',
  shelf: '上架/下架',
  stock: '库存',
  test: '测试',
  reprint: '重新打印',
};
const en: Record<keyof typeof zh, string> = {
  list: 'List',
  query: 'View',
  create: 'Create',
  update: 'Edit',
  delete: 'Delete',
  status: 'Enable / disable',
  export: 'Export',
  import: 'Import',
  resetPwd: 'Reset password',
  grant: 'Assign roles',
  forceLogout: 'Force logout',
  open: 'Open',
  cancel: 'Cancel',
  renew: 'Renew',
  approve: 'Approve',
  publish: 'Publish',
  deprecate: 'Deprecate',
  enrol: 'Enrol',
  disable: 'Disable',
  revoke: 'Revoke',
  adjust: 'Adjust stock',
  stockSettings: 'Stock settings',
  confirm: 'Confirm',
  ship: 'Ship',
  complete: 'Complete',
  print: 'Print',
  shelf: 'Shelve / unshelve',
  stock: 'Stock',
  test: 'Test',
  reprint: 'Reprint',
};
const keyed = (bundle: Record<string, string>) => Object.fromEntries(Object.entries(bundle).map(([k, v]) => [`permission.action.${k}`, v]));
registerMessages({ 'zh-CN': keyed(zh), 'en-US': keyed(en) });

/** A button's label: its permission's action in the caller's language, else the stored title. */
export const actionLabel = (t: TFunction, title: string) => t(`permission.action.${title}`, { defaultValue: title });
