import { registerMessages } from '../../crud/messages';

/** Strings of the staging workbench, in both languages. */
const zh: Record<string, string> = {
  'staging.todos': '我的待办',
  'staging.todo.notices': '未读公告',
  'staging.todo.messages': '未读消息',
  'staging.todo.todos': '待办通知',
  'staging.todo.approvals': '待审批参数变更',
  'staging.todo.release': '待我审批的发布',
  'staging.tasks': '我最近的发布任务',
  'staging.noTasks': '暂无发布任务',
  'staging.orders': '我最近的销售单',
  'staging.noOrders': '暂无销售单',
  'staging.pinned': '我的快捷方式',
  'staging.pin': '固定到快捷方式',
  'staging.unpin': '取消固定',
  'staging.noPins': '在下方页面上点图钉，把常用页面固定在这里',
  'staging.pinsFull': '最多固定 {{count}} 个页面',
  'staging.recent': '最近访问',
};

const en: Record<string, string> = {
  'staging.todos': 'My to-dos',
  'staging.todo.notices': 'Unread notices',
  'staging.todo.messages': 'Unread messages',
  'staging.todo.todos': 'To-do notifications',
  'staging.todo.approvals': 'Parameter changes to approve',
  'staging.todo.release': 'Releases awaiting my approval',
  'staging.tasks': 'My recent release tasks',
  'staging.noTasks': 'No release tasks yet',
  'staging.orders': 'My recent sales orders',
  'staging.noOrders': 'No sales orders yet',
  'staging.pinned': 'My shortcuts',
  'staging.pin': 'Pin to shortcuts',
  'staging.unpin': 'Unpin',
  'staging.noPins': 'Pin the pages you use most with the pin below',
  'staging.pinsFull': 'At most {{count}} pages can be pinned',
  'staging.recent': 'Recently visited',
};

registerMessages({ 'zh-CN': zh, 'en-US': en });
