import { Button, Typography } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../../api/auth';
import { TotpEnrolment } from '../../../components/second-factor/TotpEnrolment';
import { signedIn } from '../../../services/session';

type Props = { mfaToken: string; onDone: () => Promise<void>; onRestart: (reason?: string) => void };

/**
 * After the password, when the tenant requires a second factor the account does not have: enrol an
 * authenticator app (nothing else opens with this step's token), see the recovery codes, then go on
 * signed in. Loaded only when needed: the QR code stays out of the login page's first download.
 */
export default function ForcedEnrolment({ mfaToken, onDone, onRestart }: Props) {
  const { t } = useTranslation();
  return (
    <div className="login-form">
      <Typography.Paragraph>{t('login.mfa.enrolPrompt')}</Typography.Paragraph>
      <TotpEnrolment
        begin={() => authApi.enrolBegin(mfaToken)}
        confirm={async (code) => {
          const { token, recoveryCodes } = await authApi.enrolConfirm(mfaToken, code);
          signedIn(token);
          return recoveryCodes;
        }}
        onDone={() => void onDone()}
      />
      <Button type="text" size="mini" onClick={() => onRestart()}>
        {t('login.backToLogin')}
      </Button>
    </div>
  );
}
