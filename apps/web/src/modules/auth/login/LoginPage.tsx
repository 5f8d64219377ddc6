import { Button, Checkbox, Input } from '@arco-design/web-react';
import { type FormEvent, lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { authApi, type SystemMeta } from '../../../api/auth';
import { ApiError } from '../../../api/http';
import { getDeviceId, signOutReason } from '../../../api/storage';
import { formatDateTime } from '../../../locale/datetime';
import { afterLoginPath } from '../../../services/guard';
import { loadSession, login, type PendingSignIn } from '../../../services/session';
import { useSettings } from '../../../services/settings';
import { AuthLayout } from '../AuthLayout';
import { useCaptcha } from '../useCaptcha';
import { LoginField } from './LoginField';

// the second step, and the forced enrolment that draws a QR code, load only when a sign-in needs them:
// the page's first download stays what it was
const SecondStep = lazy(() => import('./SecondStep'));
const ForcedEnrolment = lazy(() => import('./ForcedEnrolment'));
// single sign-on (ADR 049): its form, and the exchange when the provider sent the browser back (#sso_…)
const SsoSignIn = lazy(() => import('./SsoSignIn'));

type Field = 'account' | 'password' | 'code';
type Values = Record<Field, string>;

const REMEMBERED_ACCOUNT_KEY = 'login-account';
/** The <html> data key where the prerendered page's boot script marks a submit made before React took over. */
export const HELD_SUBMIT = 'loginHeld';

const SIGN_OUT_REASONS = ['forced', 'expired', 'idle', 'user_disabled', 'tenant_disabled', 'removed', 'password'];

// runs once, before the browser paints; on the server (the build's prerender) not at all
function useBeforePaint(effect: () => void) {
  (typeof document === 'undefined' ? useEffect : useLayoutEffect)(effect, []);
}

// A plain form with Arco inputs: Arco's Form (validation, tooltips, grid) would double the first download
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const captcha = useCaptcha();
  // The first render is the page the build prerendered (login.html): nothing read from this browser's
  // storage, so hydration meets the same markup. What the browser remembers comes in just after.
  const [values, setValues] = useState<Values>({ account: '', password: '', code: '' });
  const [remember, setRemember] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState('');
  const [loading, setLoading] = useState(false);
  const [meta, setMeta] = useState<SystemMeta | null>(null);
  const [heldSubmit, setHeldSubmit] = useState(false);
  // the password was right and a second step is pending
  const [pending, setPending] = useState<PendingSignIn | null>(null);
  // "Sign in with single sign-on": the fragment it landed with ('' when chosen here), or null for the password form
  const [sso, setSso] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    authApi.meta().then(setMeta, () => setMeta(null));
  }, []);

  // before the first paint of a client render; on a prerendered page, once its code has arrived: what
  // was typed before that is kept, the remembered account fills an empty field, focus goes where it
  // should unless the visitor is already in a field
  useBeforePaint(() => {
    const form = formRef.current;
    const typed = (field: Field) => form?.querySelector<HTMLInputElement>(`#login-${field}`)?.value ?? '';
    const remembered = localStorage.getItem(REMEMBERED_ACCOUNT_KEY);
    const account = typed('account') || remembered || '';
    const found: Values = { account, password: typed('password'), code: typed('code') };
    // nothing typed or remembered (the common case): no second render inside hydration's commit
    if (found.account || found.password || found.code) setValues(found);
    const ticked = form?.querySelector<HTMLInputElement>('.auth-actions input[type=checkbox]')?.checked;
    setRemember(Boolean(ticked || remembered));
    // a session that ended elsewhere (forced out, expired…) says why, until the next sign-in
    const reason = signOutReason();
    if (reason) setFailure(t(`login.signedOut.${SIGN_OUT_REASONS.includes(reason) ? reason : 'other'}`));
    // back from the tenant's provider: its chunk takes the fragment (and the one-time code out of the address)
    if (location.hash.startsWith('#sso_')) setSso(location.hash);
    if (document.documentElement.dataset[HELD_SUBMIT]) {
      delete document.documentElement.dataset[HELD_SUBMIT];
      setHeldSubmit(true);
    }
    if (!document.activeElement || document.activeElement === document.body)
      form?.querySelector<HTMLInputElement>(account ? '#login-password' : '#login-account')?.focus();
  });

  // a submit made before the page's code ran, sent now, with the values typed then
  useEffect(() => {
    if (!heldSubmit) return;
    setHeldSubmit(false);
    formRef.current?.requestSubmit();
  }, [heldSubmit]);

  /** An input's value, its change and how it says it is wrong, tied to its field (ids `login-<field>`). */
  const bound = (field: Field) => ({
    id: `login-${field}`,
    value: values[field],
    onChange: set(field),
    status: errors[field] ? ('error' as const) : undefined,
    'aria-invalid': Boolean(errors[field]),
    'aria-describedby': errors[field] ? `login-${field}-error` : undefined,
  });
  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const validate = (): boolean => {
    const next: Partial<Record<Field, string>> = {};
    if (!values.account.trim()) next.account = t('login.form.account.required');
    if (!values.password) next.password = t('login.form.password.required');
    if (captcha.enabled && !values.code.trim()) next.code = t('login.form.captcha.required');
    setErrors(next);
    const first = (['account', 'password', 'code'] as Field[]).find((field) => next[field]);
    if (first) formRef.current?.querySelector<HTMLInputElement>(`#login-${first}`)?.focus();
    return !first;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (loading || !validate()) return;
    setFailure('');
    setLoading(true);
    try {
      const account = values.account.trim();
      const second = await login({
        account,
        password: values.password,
        code: captcha.enabled ? values.code.trim() : undefined,
        captchaId: captcha.enabled ? captcha.captchaId : undefined,
        deviceId: getDeviceId(),
        remember,
      });
      if (remember) localStorage.setItem(REMEMBERED_ACCOUNT_KEY, account);
      else localStorage.removeItem(REMEMBERED_ACCOUNT_KEY);
      if (second) {
        setPending(second);
        return;
      }
      await finish();
    } catch (error) {
      // the server says why (wrong password, locked…); anything else gets the spec's generic line
      const message = error instanceof ApiError && error.code > 0 ? error.message : '';
      const lockedUntil = error instanceof ApiError ? (error.data as { lockedUntil?: string } | null)?.lockedUntil : undefined;
      // the lock's end in the browser's time zone, not the server's UTC
      setFailure(lockedUntil ? t('login.locked', { until: formatDateTime(lockedUntil) }) : message || t('login.form.error'));
      if (captcha.enabled) {
        setValues((v) => ({ ...v, code: '' }));
        captcha.refresh();
      }
    } finally {
      setLoading(false);
    }
  };

  async function finish() {
    await loadSession(useSettings.getState().menuFromServer);
    navigate(afterLoginPath(search), { replace: true });
  }

  // back to the password (the second step expired, was locked, or the visitor went back)
  const restart = (reason?: string) => {
    setPending(null);
    setValues((v) => ({ ...v, password: '', code: '' }));
    setFailure(reason ?? '');
    if (captcha.enabled) captcha.refresh();
  };

  if (pending) {
    return (
      <AuthLayout title={t(pending.mfa === 'enrol' ? 'login.mfa.enrolTitle' : 'login.mfa.title')}>
        <Suspense fallback={null}>
          {pending.mfa === 'enrol' ? (
            <ForcedEnrolment mfaToken={pending.mfaToken} onDone={finish} onRestart={restart} />
          ) : (
            <SecondStep mfaToken={pending.mfaToken} methods={pending.methods} onDone={finish} onRestart={restart} />
          )}
        </Suspense>
      </AuthLayout>
    );
  }

  if (sso !== null) {
    return (
      <AuthLayout title={t('login.sso')}>
        <Suspense fallback={null}>
          <SsoSignIn landing={sso} onBack={() => setSso(null)} />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <div className="auth-error" role="alert" aria-live="assertive">
        {failure}
      </div>
      <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate className="login-form">
        <LoginField id="login-account" label={t('login.form.account')} error={errors.account}>
          <Input {...bound('account')} placeholder={t('login.form.account.placeholder')} autoComplete="username" />
        </LoginField>
        <LoginField id="login-password" label={t('login.form.password')} error={errors.password}>
          <Input.Password {...bound('password')} placeholder={t('login.form.password.placeholder')} autoComplete="current-password" />
        </LoginField>
        {captcha.enabled ? (
          <LoginField id="login-code" label={t('login.form.captcha')} error={errors.code}>
            <div className="captcha-row">
              <Input {...bound('code')} placeholder={t('login.form.captcha.placeholder')} autoComplete="off" />
              <button type="button" className="captcha-button" onClick={captcha.refresh} title={t('login.form.captcha.refresh')}>
                {captcha.src ? <img src={captcha.src} alt={t('login.form.captcha.image')} height={32} /> : null}
                <span className="sr-only">{t('login.form.captcha.refresh')}</span>
              </button>
            </div>
          </LoginField>
        ) : null}
        <div className="auth-actions">
          <Checkbox checked={remember} onChange={setRemember}>
            {t('login.form.remember')}
          </Checkbox>
          <Link to="/findPassword">{t('login.form.forgot')}</Link>
        </div>
        <Button type="primary" htmlType="submit" long loading={loading}>
          {t('login.form.submit')}
        </Button>
        <Button long className="login-sso" onClick={() => setSso('')}>
          {t('login.sso')}
        </Button>
        {meta?.registration === false ? null : (
          <div className="auth-alt">
            <Link to="/register">{t('login.form.register')}</Link>
          </div>
        )}
      </form>
    </AuthLayout>
  );
}
