/**
 * The strings of the system entities on the manifest machinery, in both languages, written once: the web
 * app registers them with its locale registry, the server's Excel export writes headers with them.
 */
export const systemZh: Record<string, string> = {
  'system.post.entity': '岗位',
  'system.post.code': '岗位编码',
  'system.post.name': '岗位名称',
  // the audit logs' Excel columns
  'system.log.id': '编号',
  'system.log.time': '时间',
  'system.log.operator': '操作人',
  'system.log.module': '模块',
  'system.log.action': '操作',
  'system.log.target': '对象',
  'system.log.targetName': '对象名称',
  'system.log.method': '请求方式',
  'system.log.url': '请求地址',
  'system.log.ip': 'IP',
  'system.log.result': '结果',
  'system.log.error': '错误信息',
  'system.log.duration': '耗时（毫秒）',
  'system.log.summary': '变更摘要',
  'system.log.account': '登录账号',
  'system.log.reason': '原因',
  'system.log.userAgent': '浏览器',
};

export const systemEn: Record<keyof typeof systemZh, string> = {
  'system.post.entity': 'post',
  'system.post.code': 'Post code',
  'system.post.name': 'Post name',
  'system.log.id': 'ID',
  'system.log.time': 'Time',
  'system.log.operator': 'Operator',
  'system.log.module': 'Module',
  'system.log.action': 'Action',
  'system.log.target': 'Target',
  'system.log.targetName': 'Target name',
  'system.log.method': 'Method',
  'system.log.url': 'URL',
  'system.log.ip': 'IP',
  'system.log.result': 'Result',
  'system.log.error': 'Error',
  'system.log.duration': 'Duration (ms)',
  'system.log.summary': 'Changes',
  'system.log.account': 'Account',
  'system.log.reason': 'Reason',
  'system.log.userAgent': 'User agent',
};
