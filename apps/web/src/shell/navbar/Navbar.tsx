import { IconMenu } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { STAGING_PATH } from '../../services/routes';
import { MessageBox } from '../message-box/MessageBox';
import { IconButton } from './IconButton';
import { LanguageMenu } from './LanguageMenu';
import { FullscreenToggle, SettingsButton, ThemeToggle } from './NavActions';
import { UserMenu } from './UserMenu';

type Props = { onOpenSettings: () => void; onOpenMenu?: () => void };

export function Navbar({ onOpenSettings, onOpenMenu }: Props) {
  const { t } = useTranslation();
  return (
    <header className="app-navbar">
      <div className="nav-left">
        {onOpenMenu ? <IconButton label={t('menu.open')} icon={<IconMenu />} onClick={onOpenMenu} /> : null}
        <Link to={STAGING_PATH} className="nav-logo" aria-label={t('navbar.logo')}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span className="nav-logo-text">{t('app.name')}</span>
        </Link>
      </div>
      <ul className="nav-right">
        <li>
          <LanguageMenu />
        </li>
        <li>
          <ThemeToggle />
        </li>
        <li className="nav-hide-mobile">
          <FullscreenToggle />
        </li>
        <li>
          <MessageBox />
        </li>
        <li>
          <SettingsButton onOpen={onOpenSettings} />
        </li>
        <li>
          <UserMenu />
        </li>
      </ul>
    </header>
  );
}
