import { Button } from '@arco-design/web-react';
import { IconCloseCircleFill, IconExclamationCircleFill } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';

/** Errors a route throws: 403 from the guards, anything else as the internal-error state. */
export function RouteError() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const error = useRouteError();
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  return (
    <div className="center-page" role="alert">
      <div className="state-block">
        {forbidden ? <IconExclamationCircleFill className="state-icon warning" /> : <IconCloseCircleFill className="state-icon danger" />}
        <h2>{forbidden ? t('exception.403.title') : t('exception.500.title')}</h2>
        <p>{forbidden ? t('exception.403.subtitle') : t('exception.500.subtitle')}</p>
        <Button type="primary" onClick={() => (forbidden ? navigate('/login') : window.location.reload())}>
          {forbidden ? t('login.backToLogin') : t('common.retry')}
        </Button>
      </div>
    </div>
  );
}
