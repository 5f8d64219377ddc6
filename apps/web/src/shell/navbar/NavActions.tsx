import { IconFullscreen, IconFullscreenExit, IconMoonFill, IconSettings, IconSunFill } from '@arco-design/web-react/icon';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../services/settings';
import { IconButton } from './IconButton';

export function ThemeToggle() {
  const { t } = useTranslation();
  const theme = useSettings((s) => s.theme);
  const update = useSettings((s) => s.update);
  const dark = theme === 'dark';
  return (
    <IconButton
      label={dark ? t('navbar.theme.toLight') : t('navbar.theme.toDark')}
      icon={dark ? <IconSunFill /> : <IconMoonFill />}
      onClick={() => update({ theme: dark ? 'light' : 'dark' })}
    />
  );
}

export function FullscreenToggle() {
  const { t } = useTranslation();
  const [full, setFull] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const sync = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return (
    <IconButton
      label={full ? t('navbar.fullscreen.exit') : t('navbar.fullscreen.enter')}
      icon={full ? <IconFullscreenExit /> : <IconFullscreen />}
      onClick={toggle}
    />
  );
}

export function SettingsButton({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return <IconButton label={t('navbar.settings')} icon={<IconSettings />} onClick={onOpen} />;
}
