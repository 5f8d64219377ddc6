import { Result } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import './messages';

/** What a list the role may not read shows instead of its rows (a 403): retrying would not help. */
export function NoAccess() {
  const { t } = useTranslation();
  return <Result status="403" title={t('crud.noAccess')} subTitle={t('crud.noAccessHint')} />;
}
