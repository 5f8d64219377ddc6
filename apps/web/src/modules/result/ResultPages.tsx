import { Button, Result, Typography } from '@arco-design/web-react';
import { IconCloseCircle } from '@arco-design/web-react/icon';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** A button under a result: its key in `result.{status}`, whether it is the primary one, what it does. */
type Action = { key: string; primary?: boolean; run: () => void };

/** A result page in its card: the title and subtitle of `result.{status}`, its buttons, and what follows. */
function ResultCard({ status, actions, children }: { status: 'success' | 'error'; actions: Action[]; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="page-card center-card">
      <Result
        status={status}
        title={t(`result.${status}.title`)}
        subTitle={t(`result.${status}.subtitle`)}
        extra={actions.map(({ key, primary, run }) => (
          <Button key={key} type={primary ? 'primary' : undefined} onClick={run}>
            {t(`result.${status}.${key}`)}
          </Button>
        ))}
      />
      {children}
    </div>
  );
}

export function SuccessResultPage() {
  const navigate = useNavigate();
  return (
    <ResultCard
      status="success"
      actions={[
        { key: 'print', run: () => window.print() },
        { key: 'projectList', primary: true, run: () => navigate('/list/search-table') },
      ]}
    />
  );
}

/** Why the step failed, each with its link to learn more. */
const errorDetails = ['domainNotRegistered', 'noAuthority'];

export function ErrorResultPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <ResultCard
      status="error"
      actions={[
        { key: 'again', primary: true, run: () => navigate('/form/step') },
        { key: 'back', run: () => navigate(-1) },
      ]}
    >
      <section className="result-details" aria-labelledby="result-details-title">
        <Typography.Title heading={6} id="result-details-title">
          {t('result.error.details')}
        </Typography.Title>
        {errorDetails.map((detail) => (
          <p key={detail}>
            <IconCloseCircle className="result-details-icon" />
            {t(`result.error.${detail}`)}{' '}
            <a href="https://arco.design" target="_blank" rel="noreferrer">
              {t('result.error.learnMore')}
            </a>
          </p>
        ))}
      </section>
    </ResultCard>
  );
}
