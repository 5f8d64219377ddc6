import type { Notification, NotificationPage, NotificationType } from '@atrium/contracts/realtime';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import { NOTIFICATIONS_KEY, refreshNotificationFigures } from '../../realtime/keys';

export type { NotificationPage, NotificationType } from '@atrium/contracts/realtime';
export type NotificationItem = Notification;
export const notificationTypes: NotificationType[] = ['message', 'notice', 'todo'];

export type NotificationQuery = { type?: NotificationType; read?: boolean; pageNum: number; pageSize: number };

/** Query keys of the stored notifications; invalidate `notificationKeys.all` when a new one arrives. */
export const notificationKeys = {
  all: NOTIFICATIONS_KEY,
  list: (query: NotificationQuery) => ['notifications', 'list', query] as const,
  unread: () => ['notifications', 'unread'] as const,
};

export const notificationsApi = {
  list: (query: NotificationQuery, silent = false) => http.get<NotificationPage>('/api/system/notification', { params: query, silent }),
  markRead: (id: NotificationItem['id']) => http.put<unknown>(`/api/system/notification/${id}/read`),
  markAllRead: () => http.put<unknown>('/api/system/notification/read-all'),
};

/** Unread counts per type for the navbar badge (quiet: the badge must not toast on every page). */
export function useUnreadCounts() {
  return useQuery({
    queryKey: notificationKeys.unread(),
    queryFn: async () => (await notificationsApi.list({ pageNum: 1, pageSize: 1 }, true)).unread,
    staleTime: 60_000,
  });
}

export function useNotifications(query: NotificationQuery, enabled: boolean) {
  return useQuery({ queryKey: notificationKeys.list(query), queryFn: () => notificationsApi.list(query), enabled });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: notificationsApi.markRead,
    onSuccess: () => refreshNotificationFigures(client),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: notificationsApi.markAllRead,
    onSuccess: () => refreshNotificationFigures(client),
  });
}
