import type { QueryClient } from '@tanstack/react-query';

/** Query keys of the figures a notification changes: the stored notifications (bell, message box, list)… */
export const NOTIFICATIONS_KEY = ['notifications'] as const;
/** …and the unread counts of the staging page's to-dos (`/api/user/workbench`). */
export const WORKBENCH_KEY = ['user', 'workbench'] as const;

/** A notification arrived, was read or removed: every figure on screen that counts them is fetched again. */
export function refreshNotificationFigures(client: QueryClient): Promise<unknown> {
  return Promise.all([NOTIFICATIONS_KEY, WORKBENCH_KEY].map((queryKey) => client.invalidateQueries({ queryKey })));
}
