import { Button, Result, Typography } from '@arco-design/web-react';
import { IconCloseCircle } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function SuccessResultPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="page-card center-card">
      <Result
        status="success"
        title={t('result.success.title')}
        subTitle={t('result.success.subtitle')}
        extra={[
          <Button key="print" onClick={() => window.print()}>
            {t('result.success.print')}
          </Button>,
          <Button key="list" type="primary" onClick={() => navigate('/list/search-table')}>
            {t('result.success.projectList')}
          </Button>,
        ]}
      />
    </div>
  );
}

export function ErrorResultPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="page-card center-card">
      <Result
        status="error"
        title={t('result.error.title')}
        subTitle={t('result.error.subtitle')}
        extra={[
          <Button key="again" type="primary" onClick={() => navigate('/form/step')}>
            {t('result.error.again')}
          </Button>,
          <Button key="back" onClick={() => navigate(-1)}>
            {t('result.error.back')}
          </Button>,
        ]}
      />
      <section className="result-details" aria-labelledby="result-details-title">
        <Typography.Title heading={6} id="result-details-title">
          {t('result.error.details')}
        </Typography.Title>
        <p>
          <IconCloseCircle className="result-details-icon" />
          {t('result.error.domainNotRegistered')}{' '}
          <a href="https://arco.design" target="_blank" rel="noreferrer">
            {t('result.error.learnMore')}
          </a>
        </p>
        <p>
          <IconCloseCircle className="result-details-icon" />
          {t('result.error.noAuthority')}{' '}
          <a href="https://arco.design" target="_blank" rel="noreferrer">
            {t('result.error.learnMore')}
          </a>
        </p>
      </section>
    </div>
  );
}
