import { Notification } from '@arco-design/web-react';
import type { NotificationEvent, RealtimeConnection } from '@atrium/contracts/realtime';
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useEffect } from 'react';
import { getToken, http } from '../api';
import { checkRelease } from '../services/release';
import { useSession } from '../services/session';
import { startRealtime } from './connection';
import { emitRealtime } from './events';
import { refreshNotificationFigures } from './keys';
import './messages';

/**
 * Live updates for the signed-in layout: one broker connection per tab. A notification refreshes the
 * message box and pops a short notice; every message is also re-emitted for pages (see events.ts).
 */
export function RealtimeBridge() {
  const queryClient = useQueryClient();
  const info = useSession((s) => s.userInfo);
  const accountId = info?.accountId;
  const clientKey = info?.clientKey;
  const tenantId = info?.tenantId;

  useEffect(() => {
    const token = getToken();
    if (!accountId || !clientKey || !token) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    // every figure a notification changes follows the same event: the bell and the staging page's counts
    const refresh = () => refreshNotificationFigures(queryClient);
    http
      .get<RealtimeConnection>('/api/system/notification/connection', { silent: true })
      .then((connection) => {
        if (cancelled) return;
        stop = startRealtime({
          connection,
          username: accountId,
          clientKey,
          token,
          onConnected: refresh,
          // refused after an upgrade (the client id rule, say, changed): the reload notice, not silence
          onRefused: () => void checkRelease('realtime'),
          onMessage: (message) => {
            emitRealtime(message);
            if (message.kind !== 'notification') return;
            const event = message as unknown as NotificationEvent;
            if (event.tenantId !== tenantId) return;
            void refresh();
            if (event.action === 'created') {
              Notification.info({
                title: i18next.t(`realtime.new.${event.notification.type}`),
                content: event.notification.title,
                duration: 4000,
              });
            }
          },
        });
      })
      .catch(() => {
        // no live updates this time; the message box still reads stored notifications
      });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [accountId, clientKey, tenantId, queryClient]);

  return null;
}
