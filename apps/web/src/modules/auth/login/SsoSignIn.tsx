import { Button, Input } from '@arco-design/web-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, http } from '../../../api/http';
import { registerMessages } from '../../../locale/registry';
import { afterLoginPath } from '../../../services/guard';
import { loadSession, signedIn } from '../../../services/session';
import { useSettings } from '../../../services/settings';
import { LoginField } from './LoginField';

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

registerMessages({
  'zh-CN': {
    'sso.intro': '输入组织（租户）编码，将转到组织的身份提供方登录。',
    'sso.signingIn': '正在完成单点登录…',
    'sso.tenant': '租户编码',
    'sso.tenant.placeholder': '例如 acme',
    'sso.tenant.required': '租户编码不能为空',
    'sso.continue': '继续',
    'sso.back': '返回账号密码登录',
    'sso.error.state': '登录已过期或不是在本浏览器中发起的，请重新登录',
    'sso.error.denied': '身份提供方未允许登录',
    'sso.error.verify': '身份提供方的应答未通过校验，请重试或联系管理员',
    'sso.error.unknownUser': '该组织中没有与您对应的账号，请联系管理员',
    'sso.error.disabled': '您的账号在该组织中已停用',
    'sso.error.superAdmin': '超级管理员请使用账号密码登录',
    'sso.error.jit': '无法为您创建账号（用户名缺失或已被占用），请联系管理员',
    'sso.error.unavailable': '该组织未启用单点登录，或其身份提供方暂时无法访问',
    'sso.error.other': '单点登录失败，请重试',
  },
  'en-US': {
    'sso.intro': "Enter your organisation's (tenant's) code to sign in at its identity provider.",
    'sso.signingIn': 'Finishing single sign-on…',
    'sso.tenant': 'Tenant code',
    'sso.tenant.placeholder': 'e.g. acme',
    'sso.tenant.required': 'Tenant code cannot be empty',
    'sso.continue': 'Continue',
    'sso.back': 'Back to password sign-in',
    'sso.error.state': 'The sign-in expired or was not started in this browser: start again',
    'sso.error.denied': 'The identity provider did not let you sign in',
    'sso.error.verify': "The identity provider's answer did not verify: try again or tell your administrator",
    'sso.error.unknownUser': 'No account in this organisation matches you: ask your administrator',
    'sso.error.disabled': 'Your account is disabled in this organisation',
    'sso.error.superAdmin': 'Super admins sign in with their password',
    'sso.error.jit': 'An account could not be made for you (no user name, or it is taken): ask your administrator',
    'sso.error.unavailable': 'This organisation has no single sign-on, or its identity provider cannot be reached',
    'sso.error.other': 'Single sign-on failed: try again',
  },
});
