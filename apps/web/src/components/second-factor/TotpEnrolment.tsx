import { Alert, Button, Input, Skeleton, Typography } from '@arco-design/web-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';
import { QrCode } from '../qr/QrCode';
import { cleanCode } from './code';
import { RecoveryCodes } from './RecoveryCodes';
import './second-factor.css';

type Props = {
  /** begins the enrolment: the secret and its otpauth:// address */
  begin: () => Promise<{ secret: string; otpauthUrl: string }>;
  /** confirms it with a code from the app: the ten recovery codes */
  confirm: (code: string) => Promise<string[]>;
  /** after the recovery codes were shown */
  onDone: () => void;
};

/**
 * Enrolling an authenticator app: its QR code (drawn by Atrium's own QR component) and key, a field for
 * the first code, then the ten recovery codes, once. Used by the user centre and the forced enrolment
 * after the password.
 */
export function TotpEnrolment({ begin, confirm, onDone }: Props) {
  const { t } = useTranslation();
  const [started, setStarted] = useState<{ secret: string; otpauthUrl: string } | null>(null);
  const [loadError, setLoadError] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: begins once per mount
  useEffect(() => {
    begin().then(setStarted, (e: unknown) => setLoadError(e instanceof ApiError && e.code > 0 ? e.message : t('mfa.enrol.loadFailed')));
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== 6) {
      setError(t('login.mfa.required'));
      return;
    }
    setBusy(true);
    setError('');
    try {
      setCodes(await confirm(code));
    } catch (e) {
      setError(
        e instanceof ApiError && e.status === 400
          ? t('login.mfa.wrong')
          : e instanceof ApiError && e.code > 0
            ? e.message
            : t('http.error'),
      );
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  if (loadError) return <Alert type="error" content={loadError} />;
  if (!started) return <Skeleton animation text={{ rows: 4 }} />;
  return (
    <form className="mfa-enrol" onSubmit={(event) => void submit(event)} noValidate>
      <Typography.Paragraph>{t('mfa.enrol.scan')}</Typography.Paragraph>
      <div className="mfa-enrol-qr">
        <QrCode value={started.otpauthUrl} label={t('mfa.enrol.qr')} level="M" size={180} />
      </div>
      <div className="mfa-enrol-secret">
        <span>{t('mfa.enrol.secret')}: </span>
        <code data-testid="totp-secret">{started.secret}</code>
      </div>
      <label htmlFor="mfa-enrol-code" className="mfa-label">
        {t('mfa.enrol.code')}
      </label>
      <Input
        id="mfa-enrol-code"
        value={code}
        onChange={(value) => {
          setCode(cleanCode(value, 'totp'));
          setError('');
        }}
        inputMode="numeric"
        autoComplete="one-time-code"
        status={error ? 'error' : undefined}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? 'mfa-enrol-code-error' : undefined}
        className="mfa-code-input"
      />
      <div id="mfa-enrol-code-error" className="mfa-error" role="alert">
        {error}
      </div>
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('mfa.enrol.confirm')}
      </Button>
    </form>
  );
}
