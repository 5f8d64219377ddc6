import { Button, Result } from '@arco-design/web-react';
import { IconTool } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { STAGING_PATH } from '../services/routes';
import { useCurrentRoute } from '../shell/useCurrentRoute';

/** The state of a catalogue page whose screen is not built yet. */
export function ComingSoon() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentRoute();
  const page = route ? t(route.meta.locale) : '';
  return (
    <div className="page-card center-card">
      <Result
        icon={<IconTool style={{ fontSize: 56, color: 'rgb(var(--primary-6))' }} />}
        title={t('comingSoon.title')}
        subTitle={t('comingSoon.subtitle', { page })}
        extra={
          <Button type="primary" onClick={() => navigate(STAGING_PATH)}>
            {t('comingSoon.home')}
          </Button>
        }
      />
    </div>
  );
}
