import { Button, Result } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { STAGING_PATH } from '../../app/routes';

export function ForbiddenPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="page-card center-card">
      <Result
        status="403"
        title={t('exception.403.title')}
        subTitle={t('exception.403.subtitle')}
        extra={
          <Button type="primary" onClick={() => navigate(STAGING_PATH)}>
            {t('exception.home')}
          </Button>
        }
      />
    </div>
  );
}

export function GonePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="page-card center-card">
      <Result
        status="404"
        title={t('exception.404.title')}
        subTitle={t('exception.404.subtitle')}
        extra={[
          <Button key="retry" onClick={() => navigate(0)}>
            {t('exception.retry')}
          </Button>,
          <Button key="back" type="primary" onClick={() => navigate(-1)}>
            {t('exception.back')}
          </Button>,
        ]}
      />
    </div>
  );
}

export function ServerErrorPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="page-card center-card">
      <Result
        status="500"
        title={t('exception.500.title')}
        subTitle={t('exception.500.subtitle')}
        extra={
          <Button type="primary" onClick={() => navigate(-1)}>
            {t('exception.back')}
          </Button>
        }
      />
    </div>
  );
}
