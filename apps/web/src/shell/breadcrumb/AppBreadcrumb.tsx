import { Breadcrumb } from '@arco-design/web-react';
import { IconHome } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { STAGING_PATH } from '../../services/routes';
import { useCurrentRoute } from '../useCurrentRoute';

/** Home icon, then the translated labels of the section and the page. */
export function AppBreadcrumb() {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  if (!route) return null;
  const labels = [route.parent && route.parent.path !== STAGING_PATH ? route.parent.meta.locale : undefined, route.meta.locale].filter(
    (key): key is string => Boolean(key),
  );
  return (
    <nav aria-label={t('breadcrumb.ariaLabel')} className="app-breadcrumb">
      <Breadcrumb>
        <Breadcrumb.Item>
          <Link to={STAGING_PATH} aria-label={t('breadcrumb.home')}>
            <IconHome />
          </Link>
        </Breadcrumb.Item>
        {labels.map((key) => (
          <Breadcrumb.Item key={key}>{t(key)}</Breadcrumb.Item>
        ))}
      </Breadcrumb>
    </nav>
  );
}
