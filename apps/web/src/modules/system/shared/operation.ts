import i18next from 'i18next';
import './messages-admin';

// One way to say what an operation-log entry did, for the operation log and the user centre's recent
// activity alike: the module as its menu entry reads, the action in words, never a route's codes.

/** `system:user` → its menu entry's key (用户管理 / Users); `release:user-project` → menu.release.userProject; else the code. */
export function moduleLabel(module: string): string {
  const key = `menu.${module.replace(':', '.').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}`;
  return i18next.exists(key) ? key : module;
}

// routes that record their HTTP method as the action (release management) say it as the same words
const methodActions: Record<string, string> = { post: 'create', put: 'update', patch: 'update', delete: 'delete' };

/** The action in words of the app's language (修改 / Update), or its code when it has none. */
export function actionLabel(action: string): string {
  const key = `system.operlog.action.${methodActions[action] ?? action}`;
  return i18next.exists(key) ? i18next.t(key) : action;
}
