import { Badge, Popover } from '@arco-design/web-react';
import { IconNotification } from '@arco-design/web-react/icon';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../navbar/IconButton';
import { useUnreadCounts } from './notifications-api';

// the panel (tabs, list) downloads when first opened, not with every signed-in page
const MessagePanel = lazy(() => import('./MessagePanel').then((m) => ({ default: m.MessagePanel })));

/** The navbar bell: unread total on the badge, the message/notice/todo panel in a popover. */
export function MessageBox() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const unread = useUnreadCounts();
  const total = unread.data ? unread.data.message + unread.data.notice + unread.data.todo : 0;
  return (
    <Popover
      trigger="click"
      position="br"
      popupVisible={open}
      onVisibleChange={setOpen}
      className="message-popover"
      content={
        open ? (
          <Suspense fallback={<div className="message-panel message-panel-loading" />}>
            <MessagePanel onLeave={() => setOpen(false)} />
          </Suspense>
        ) : null
      }
    >
      <Badge count={total} dot={false} maxCount={99} offset={[-4, 4]}>
        <IconButton
          label={total ? `${t('navbar.messages')} (${t('messageBox.unread')} ${total})` : t('navbar.messages')}
          icon={<IconNotification />}
          tooltip={false}
          title={t('navbar.messages')}
          aria-haspopup="dialog"
          aria-expanded={open}
        />
      </Badge>
    </Popover>
  );
}
