import { Button } from '@arco-design/web-react';
import { IconSettings } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';

/** Shown when the navbar (and its settings button) is hidden, so the settings stay reachable. */
export function FloatingSettingsButton({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      className="floating-settings"
      type="primary"
      shape="circle"
      size="large"
      icon={<IconSettings />}
      aria-label={t('navbar.settings')}
      title={t('navbar.settings')}
      onClick={onOpen}
    />
  );
}
