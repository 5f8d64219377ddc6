import { Button, Input } from '@arco-design/web-react';
import type { MfaMethod } from '@atrium/contracts/auth';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../../api/auth';
import { ApiError, http } from '../../../api/http';
import { cleanCode, codeComplete } from '../../../components/second-factor/code';
import { passkeyAssertion, passkeysAvailable } from '../../../components/second-factor/passkey';
import '../../../components/second-factor/messages';
import { formatDateTime } from '../../../locale/datetime';
import { signedIn } from '../../../services/session';
import '../../../components/second-factor/second-factor.css';
import { LoginField } from './LoginField';

type Props = {
  mfaToken: string;
  /** what the account can prove itself with (`webauthn`: it has a passkey) */
  methods: MfaMethod[];
  /** signed in: load the session and go on */
  onDone: () => Promise<void>;
  /** back to the password, saying why when the step ended (expired, locked) */
  onRestart: (reason?: string) => void;
};

/**
 * The second step of a sign-in: a code from the authenticator app (six digits, pasted with spaces or
 * not), or, switched, a recovery code. A wrong code says so here; an expired step or a lock goes back to
 * the password with the reason.
 */
export default function SecondStep({ mfaToken, methods, onDone, onRestart }: Props) {
  const { t } = useTranslation();
  const hasApp = methods.includes('totp');
  const [method, setMethod] = useState<'totp' | 'recovery'>(hasApp ? 'totp' : 'recovery');
  const passkey = methods.includes('webauthn') && passkeysAvailable();
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);

  /** Sends a proof; a refusal says so here, an expired step or a lock goes back to the password. */
  const attempt = async (sign: () => Promise<{ token: string }>, wrong: string) => {
    setLoading(true);
    setError('');
    try {
      const { token } = await sign();
      signedIn(token);
      await onDone();
    } catch (failure) {
      const api = failure instanceof ApiError ? failure : null;
      const lockedUntil = (api?.data as { lockedUntil?: string } | null)?.lockedUntil;
      if (lockedUntil) onRestart(t('login.locked', { until: formatDateTime(lockedUntil) }));
      else if (api?.code === 1021) onRestart(t('login.mfa.expired'));
      else if (api?.status === 400 || !api) setError(wrong);
      else setError(api.code > 0 ? api.message : t('login.form.error'));
      setCode('');
    } finally {
      setLoading(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    if (!codeComplete(code, method)) {
      setError(t(method === 'totp' ? 'login.mfa.required' : 'login.mfa.recoveryRequired'));
      return;
    }
    await attempt(() => authApi.loginMfa({ mfaToken, method, code }), t('login.mfa.wrong'));
  };

  // a passkey: options for the pending sign-in, the browser's assertion, then the session
  const withPasskey = () =>
    attempt(async () => {
      const base = '/api/system/user/login/mfa/webauthn';
      const options = await http.post<Record<string, unknown>>(`${base}/options`, { mfaToken }, { silent: true });
      const response = await passkeyAssertion(options);
      return http.post<{ token: string }>(`${base}/verify`, { mfaToken, response }, { silent: true });
    }, t('passkey.failed'));

  const switchMethod = () => {
    setMethod((m) => (m === 'totp' ? 'recovery' : 'totp'));
    setCode('');
    setError('');
    document.getElementById('login-mfa-code')?.focus();
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="login-form">
      {passkey ? (
        <>
          <p className="login-mfa-prompt">{t('passkey.prompt')}</p>
          <Button type="primary" long loading={loading} onClick={() => void withPasskey()} style={{ marginBottom: 20 }}>
            {t('passkey.use')}
          </Button>
        </>
      ) : null}
      <p className="login-mfa-prompt">{t(method === 'totp' ? 'login.mfa.prompt' : 'login.mfa.recoveryPrompt')}</p>
      <LoginField id="login-mfa-code" label={t(method === 'totp' ? 'login.mfa.code' : 'login.mfa.recoveryCode')} error={error}>
        <Input
          id="login-mfa-code"
          autoFocus
          value={code}
          onChange={(value) => {
            setCode(cleanCode(value, method));
            if (error) setError('');
          }}
          inputMode={method === 'totp' ? 'numeric' : 'text'}
          autoComplete="one-time-code"
          placeholder={method === 'totp' ? '123456' : 'xxxxx-xxxxx'}
          status={error ? 'error' : undefined}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'login-mfa-code-error' : undefined}
          className="mfa-code-input"
        />
      </LoginField>
      <div className="auth-actions">
        {hasApp ? (
          <Button type="text" size="mini" onClick={switchMethod}>
            {t(method === 'totp' ? 'login.mfa.useRecovery' : 'login.mfa.useApp')}
          </Button>
        ) : null}
        <Button type="text" size="mini" onClick={() => onRestart()}>
          {t('login.backToLogin')}
        </Button>
      </div>
      <Button type={passkey ? 'outline' : 'primary'} htmlType="submit" long loading={loading}>
        {t('login.mfa.submit')}
      </Button>
    </form>
  );
}
