import { Button, Result, Space } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { STAGING_PATH } from '../../services/routes';

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
        extra={
          // Space keeps the two buttons apart (an array of buttons touched)
          <Space size={12}>
            <Button onClick={() => navigate(0)}>{t('exception.retry')}</Button>
            <Button type="primary" onClick={() => navigate(-1)}>
              {t('exception.back')}
            </Button>
          </Space>
        }
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
