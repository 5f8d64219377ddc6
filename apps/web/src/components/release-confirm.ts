import { Modal } from '@arco-design/web-react';
import i18next from 'i18next';

/** Asks before a reload throws away unsaved input; its own chunk, loaded only when there is some. */
export function confirmReload() {
  Modal.confirm({
    title: i18next.t('appUpdate.unsavedTitle'),
    content: i18next.t('appUpdate.unsavedContent'),
    okText: i18next.t('appUpdate.reload'),
    cancelText: i18next.t('appUpdate.keep'),
    onOk: () => window.location.reload(),
  });
}
