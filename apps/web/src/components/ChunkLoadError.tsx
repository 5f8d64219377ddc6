import { Button } from '@arco-design/web-react';
import { IconExclamationCircleFill } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';

/** Shown when a page's code could not be downloaded (offline, or a new version replaced it). */
export function ChunkLoadError() {
  const { t } = useTranslation();
  // plain markup: this ships with the first screen, so it stays small
  return (
    <div className="center-page" role="alert">
      <div className="state-block">
        <IconExclamationCircleFill className="state-icon warning" />
        <h2>{t('chunk.failed')}</h2>
        <p>{t('chunk.failedHint')}</p>
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('chunk.retry')}
        </Button>
      </div>
    </div>
  );
}
