import { Typography } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../locale/datetime';
import { type NotificationItem, useMarkRead } from './notifications-api';

export function MessageList({ items, onLeave }: { items: NotificationItem[]; onLeave: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const open = (item: NotificationItem) => {
    if (!item.read) markRead.mutate(item.id);
    if (item.link?.startsWith('/')) {
      onLeave();
      navigate(item.link);
    } else if (item.link) window.open(item.link, '_blank', 'noopener');
  };
  return (
    <ul className="message-list">
      {items.map((item) => (
        <li key={item.id} className={item.read ? 'message-item read' : 'message-item'}>
          <button type="button" className="message-item-button" onClick={() => open(item)}>
            <span className="message-item-head">
              {!item.read ? <span className="message-dot" role="img" aria-label={t('messageBox.unread')} /> : null}
              <Typography.Text bold={!item.read} ellipsis className="message-title">
                {item.title}
              </Typography.Text>
              <time className="message-time" dateTime={item.createTime}>
                {formatDateTime(item.createTime)}
              </time>
            </span>
            <Typography.Paragraph className="message-content" ellipsis={{ rows: 2 }}>
              {item.content}
            </Typography.Paragraph>
            {item.sender ? <span className="message-sender">{item.sender}</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
