import { Modal } from '@arco-design/web-react';
import i18next from 'i18next';
import { getToken, getTokenFlag, rememberSignOutReason, setTokenFlag } from '../api/storage';
import { logout } from '../services/session';

/**
 * Spec 8: with a token, log out and reload; without one, ask whether to sign in again or stay.
 * The server's reason (forced, expired…) is kept for the sign-in page, which says why.
 */
export async function onInvalidLogin(reason?: string): Promise<void> {
  if (getToken()) {
    rememberSignOutReason(reason ?? 'expired');
    await logout();
    window.location.reload();
    return;
  }
  if (getTokenFlag()) return;
  setTokenFlag(true);
  const t = i18next.t.bind(i18next);
  Modal.confirm({
    title: t('session.expired.title'),
    content: t('session.expired.content'),
    okText: t('session.expired.relogin'),
    cancelText: t('session.expired.stay'),
    closable: false,
    maskClosable: false,
    onOk: async () => {
      setTokenFlag(false);
      await logout();
      window.location.reload();
    },
    onCancel: () => setTokenFlag(false),
  });
}
