import { Button, Input } from '@arco-design/web-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, http } from '../../../api/http';
import { afterLoginPath } from '../../../services/guard';
import { loadSession, signedIn } from '../../../services/session';
import { useSettings } from '../../../services/settings';
import { LoginField } from './LoginField';
import './sso-messages';

type Props = {
  /** the address fragment the server's callback landed with (`#sso_code=…` or `#sso_error=…`), or '' */
  landing: string;
  /** back to the password form */
  onBack: () => void;
};

const TENANT_KEY = 'login-tenant';

/**
 * "Sign in with single sign-on" (docs/adr/049-single-sign-on-per-tenant.md): the tenant's code sends the
 * browser to the tenant's provider through the server; back from it, the one-time code in the address
 * fragment is exchanged for the session (the token is never in an address). Loaded only when asked for.
 */
export default function SsoSignIn({ landing, onBack }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const redirect = new URLSearchParams(search).get('redirect');
  const params = new URLSearchParams(landing.slice(1));
  const code = params.get('sso_code');
  const reason = params.get('sso_error');
  const [tenant, setTenant] = useState('');
  const [fieldError, setFieldError] = useState('');
  const [failure, setFailure] = useState(reason ? t(`sso.error.${reason}`, { defaultValue: t('sso.error.other') }) : '');
  const [busy, setBusy] = useState(Boolean(code));
  const exchanged = useRef(false);

  useEffect(() => {
    setTenant(localStorage.getItem(TENANT_KEY) ?? '');
  }, []);

  // back from the provider: the code leaves the address (and the history) at once, and is spent (single use)
  useEffect(() => {
    if (landing) window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
    if (!code || exchanged.current) return;
    exchanged.current = true;
    http
      .post<{ token: string; redirect: string }>('/api/auth/sso/exchange', { code }, { silent: true })
      .then(async (result) => {
        signedIn(result.token, true);
        await loadSession(useSettings.getState().menuFromServer);
        // where the sign-in started from (kept by the server), else where a password sign-in goes
        const back = result.redirect === '/' ? '' : `?redirect=${encodeURIComponent(result.redirect)}`;
        navigate(afterLoginPath(back), { replace: true });
      })
      .catch((error: unknown) => {
        setFailure(error instanceof ApiError && error.code > 0 ? error.message : t('sso.error.other'));
        setBusy(false);
      });
  }, [code, landing, navigate, t]);

  const start = (event: FormEvent) => {
    event.preventDefault();
    const typed = tenant.trim();
    if (!typed) {
      setFieldError(t('sso.tenant.required'));
      return;
    }
    localStorage.setItem(TENANT_KEY, typed);
    setBusy(true);
    const query = redirect ? `?redirect=${encodeURIComponent(redirect)}` : '';
    window.location.assign(`/api/auth/sso/${encodeURIComponent(typed)}/start${query}`);
  };

  return (
    <>
      <div className="auth-error" role="alert" aria-live="assertive">
        {failure}
      </div>
      <form onSubmit={start} noValidate className="login-form" data-testid="sso-form">
        <p className="auth-subtitle">{t(code && busy ? 'sso.signingIn' : 'sso.intro')}</p>
        <LoginField id="sso-tenant" label={t('sso.tenant')} error={fieldError}>
          <Input
            id="sso-tenant"
            value={tenant}
            onChange={(value) => {
              setTenant(value);
              setFieldError('');
            }}
            placeholder={t('sso.tenant.placeholder')}
            autoComplete="organization"
            autoFocus={!code}
            disabled={busy}
            status={fieldError ? 'error' : undefined}
            aria-invalid={Boolean(fieldError)}
            aria-describedby={fieldError ? 'sso-tenant-error' : undefined}
          />
        </LoginField>
        <Button type="primary" htmlType="submit" long loading={busy}>
          {t('sso.continue')}
        </Button>
        <div className="auth-alt">
          <Button type="text" onClick={onBack} disabled={busy && Boolean(code)}>
            {t('sso.back')}
          </Button>
        </div>
      </form>
    </>
  );
}
