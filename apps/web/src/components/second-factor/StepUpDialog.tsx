import { Button, Input, Modal, Space, Typography } from '@arco-design/web-react';
import type { MfaFactors } from '@atrium/contracts/auth';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { ApiError, http } from '../../api/http';
import { cleanCode, codeComplete } from './code';
import { passkeyAssertion, passkeysAvailable } from './passkey';
import './messages';
import './second-factor.css';

type Method = 'totp' | 'recovery';

/**
 * The step-up dialog: the server asked for the second factor again (1022) before a sensitive change. The
 * caller proves it with a passkey, a code from the authenticator app or a recovery code
 * (POST /api/user/mfa/verify); `onClose(true)` then sends the refused request again.
 */
function StepUpDialog({ onClose }: { onClose: (proved: boolean) => void }) {
  const { t } = useTranslation();
  const [factors, setFactors] = useState<MfaFactors | null>(null);
  const [method, setMethod] = useState<Method>('totp');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    http.get<MfaFactors>('/api/user/mfa', { silent: true }).then(setFactors, () => setFactors(null));
  }, []);
  const hasApp = factors?.factors.some((f) => f.kind === 'totp') ?? false;
  const hasPasskey = factors?.factors.some((f) => f.kind === 'webauthn') ?? false;
  const shown: Method = hasApp ? method : 'recovery';

  const prove = async (body: () => Promise<Record<string, unknown>>, failure: string) => {
    setBusy(true);
    setError('');
    try {
      await http.post<null>('/api/user/mfa/verify', await body(), { silent: true });
      onClose(true);
    } catch (e) {
      setError(e instanceof ApiError && e.status !== 400 && e.code > 0 ? e.message : failure);
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  const withCode = () => {
    if (!codeComplete(code, shown)) {
      setError(t(shown === 'totp' ? 'login.mfa.required' : 'login.mfa.recoveryRequired'));
      return;
    }
    void prove(async () => ({ method: shown, code }), t('login.mfa.wrong'));
  };
  const withPasskey = () =>
    void prove(async () => {
      const options = await http.post<Record<string, unknown>>('/api/user/mfa/webauthn/options', undefined, { silent: true });
      return { method: 'webauthn', response: await passkeyAssertion(options) };
    }, t('passkey.failed'));

  return (
    <Modal
      visible
      title={t('stepUp.title')}
      onCancel={() => onClose(false)}
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={() => onClose(false)}>{t('stepUp.cancel')}</Button>
          <Button type="primary" loading={busy} onClick={withCode}>
            {t('stepUp.verify')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph>{t('stepUp.intro')}</Typography.Paragraph>
      {hasPasskey && passkeysAvailable() ? (
        <Button long type="outline" loading={busy} onClick={withPasskey} style={{ marginBottom: 16 }}>
          {t('passkey.use')}
        </Button>
      ) : null}
      <label htmlFor="step-up-code" className="mfa-label">
        {t(shown === 'totp' ? 'stepUp.code' : 'stepUp.recovery')}
      </label>
      <Input
        id="step-up-code"
        autoFocus={!hasPasskey}
        value={code}
        onChange={(value) => {
          setCode(cleanCode(value, shown));
          setError('');
        }}
        onPressEnter={withCode}
        inputMode={shown === 'totp' ? 'numeric' : 'text'}
        autoComplete="one-time-code"
        className="mfa-code-input"
        status={error ? 'error' : undefined}
        aria-invalid={Boolean(error)}
        aria-describedby="step-up-error"
      />
      <div id="step-up-error" className="mfa-error" role="alert">
        {error}
      </div>
      {hasApp ? (
        <Button
          type="text"
          size="mini"
          onClick={() => {
            setMethod((m) => (m === 'totp' ? 'recovery' : 'totp'));
            setCode('');
            setError('');
          }}
        >
          {t(shown === 'totp' ? 'stepUp.useRecovery' : 'stepUp.useApp')}
        </Button>
      ) : null}
    </Modal>
  );
}

let open: Promise<boolean> | null = null;

/** Opens the step-up dialog (one at a time: requests refused together wait for the same one); true once proved. */
export function askStepUp(): Promise<boolean> {
  open ??= new Promise<boolean>((resolve) => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    root.render(
      <StepUpDialog
        onClose={(proved) => {
          root.unmount();
          host.remove();
          open = null;
          resolve(proved);
        }}
      />,
    );
  });
  return open;
}
