import { Button } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { hasUnsavedInput, useRelease } from '../services/release';

async function reload() {
  if (!hasUnsavedInput()) {
    window.location.reload();
    return;
  }
  // typing is not thrown away unasked; the dialog comes in its own chunk, only when it is needed
  const { confirmReload } = await import('./release-confirm');
  confirmReload();
}

/**
 * The server runs another release than this tab's code (an upgrade since the tab loaded; a page's code
 * that failed to download or a broker that refused the tab led here too): a notice that does not block
 * the page, offering a reload. Plain markup: it ships with the first screen.
 */
export function ReleaseNotice() {
  const { t } = useTranslation();
  const serverRelease = useRelease((s) => s.serverRelease);
  const dismissed = useRelease((s) => s.dismissed);
  if (!serverRelease || dismissed) return null;
  return (
    <div className="release-notice" role="status" data-release={serverRelease}>
      <span>{t('appUpdate.newer', { release: serverRelease })}</span>
      <Button size="small" type="primary" onClick={() => void reload()}>
        {t('appUpdate.reload')}
      </Button>
      <Button size="small" type="text" onClick={() => useRelease.setState({ dismissed: true })}>
        {t('appUpdate.later')}
      </Button>
    </div>
  );
}
