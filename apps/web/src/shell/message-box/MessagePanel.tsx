import { Button, Empty, Spin, Tabs } from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { findLeafByName } from '../../services/routes';
import { MessageList } from './MessageList';
import { type NotificationType, notificationTypes, useMarkAllRead, useNotifications, useUnreadCounts } from './notifications-api';

const STEP = 5;
// the page listing every notification, when the app has one; otherwise "view more" grows the list here
const ALL_NOTIFICATIONS_ROUTE = 'Notification';

export function MessagePanel({ onLeave }: { onLeave: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allPath = findLeafByName(ALL_NOTIFICATIONS_ROUTE)?.path;
  // opens on the first tab with unread items (the badge counts them all), until the user picks one
  const [chosen, setType] = useState<NotificationType | null>(null);
  const [pageSize, setPageSize] = useState(STEP);
  const unread = useUnreadCounts();
  const type = chosen ?? notificationTypes.find((key) => (unread.data?.[key] ?? 0) > 0) ?? 'message';
  const list = useNotifications({ type, pageNum: 1, pageSize }, true);
  const markAll = useMarkAllRead();

  const body = () => {
    if (list.isPending) return <Spin className="message-spin" />;
    if (list.isError) return <Empty description={t('messageBox.loadFailed')} />;
    if (list.data.list.length === 0) return <Empty description={t('messageBox.empty')} />;
    return <MessageList items={list.data.list} onLeave={onLeave} />;
  };

  return (
    <div className="message-panel" role="dialog" aria-label={t('navbar.messages')}>
      <Tabs
        activeTab={type}
        onChange={(key) => {
          setType(key as NotificationType);
          setPageSize(STEP);
        }}
        size="small"
      >
        {notificationTypes.map((key) => {
          const count = unread.data?.[key] ?? 0;
          return <Tabs.TabPane key={key} title={count ? `${t(`messageBox.${key}`)} (${count})` : t(`messageBox.${key}`)} />;
        })}
      </Tabs>
      <div className="message-body">{body()}</div>
      {/* "all read" sits here, not beside the tabs, where it pushed the third tab out of a phone's view */}
      <div className="message-footer">
        <Button type="text" long loading={markAll.isPending} onClick={() => markAll.mutate()}>
          {t('messageBox.allRead')}
        </Button>
        {list.data && (allPath || list.data.total > list.data.list.length) ? (
          <Button
            type="text"
            long
            loading={list.isFetching}
            onClick={() => {
              if (allPath) {
                onLeave();
                navigate(allPath);
              } else setPageSize((n) => n + STEP * 2);
            }}
          >
            {t('messageBox.viewMore')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
