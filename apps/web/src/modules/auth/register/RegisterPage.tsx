import { Button, Form, Input, Message } from '@arco-design/web-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { authApi } from '../../../api/auth';
import { ApiError } from '../../../api/http';
import { markSignedIn, setToken } from '../../../api/storage';
import { afterLoginPath } from '../../../services/guard';
import { loadSession } from '../../../services/session';
import { useSettings } from '../../../services/settings';
import { AuthLayout } from '../AuthLayout';
import { CaptchaField } from '../CaptchaField';
import { passwordRules } from '../password-rules';
import { useCaptcha } from '../useCaptcha';

type RegisterForm = { accountId: string; email: string; tenantName: string; password: string; confirm: string; code?: string };

export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterForm>();
  const captcha = useCaptcha();
  const [closed, setClosed] = useState(false);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    authApi.meta().then(
      (meta) => setClosed(!meta.registration),
      () => undefined,
    );
  }, []);

  const submit = async (values: RegisterForm) => {
    setLoading(true);
    try {
      const result = await authApi.register({
        accountId: values.accountId.trim(),
        email: values.email.trim(),
        tenantName: values.tenantName.trim(),
        password: values.password,
        code: captcha.enabled ? values.code : undefined,
        captchaId: captcha.enabled ? captcha.captchaId : undefined,
      });
      if (result?.token) {
        setToken(result.token);
        markSignedIn();
        await loadSession(useSettings.getState().menuFromServer);
        Message.success(t('register.welcome'));
        navigate(afterLoginPath(''), { replace: true });
      } else {
        Message.success(t('register.success'));
        navigate('/login', { replace: true });
      }
    } catch (error) {
      if (error instanceof ApiError && captcha.enabled) captcha.refresh();
    } finally {
      setLoading(false);
    }
  };

  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')}>
      {closed ? (
        <div className="auth-error" role="alert">
          {t('register.disabled')}
        </div>
      ) : null}
      <Form<RegisterForm> form={form} layout="vertical" onSubmit={submit} disabled={closed} requiredSymbol={false}>
        <Form.Item
          field="accountId"
          label={t('register.accountId')}
          rules={[
            { required: true, message: t('form.required', { field: t('register.accountId') }) },
            { match: /^[A-Za-z0-9_.-]{3,30}$/, message: t('register.accountId.format') },
          ]}
        >
          <Input placeholder={t('register.accountId.placeholder')} autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item
          field="email"
          label={t('register.email')}
          rules={[
            { required: true, message: t('form.required', { field: t('register.email') }) },
            { type: 'email', message: t('register.email.invalid') },
          ]}
        >
          <Input autoComplete="email" maxLength={100} />
        </Form.Item>
        <Form.Item
          field="tenantName"
          label={t('register.tenantName')}
          rules={[{ required: true, message: t('form.required', { field: t('register.tenantName') }) }]}
        >
          <Input autoComplete="organization" maxLength={100} />
        </Form.Item>
        <Form.Item field="password" label={t('register.password')} extra={t('register.password.hint')} rules={passwordRules(t)}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          field="confirm"
          label={t('register.confirm')}
          dependencies={['password']}
          rules={[
            {
              validator: (value: string | undefined, callback: (message?: string) => void) =>
                callback(value === form.getFieldValue('password') ? undefined : t('register.confirm.mismatch')),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <CaptchaField captcha={captcha} />
        <Button type="primary" htmlType="submit" long loading={loading} disabled={closed}>
          {t('register.submit')}
        </Button>
        <div className="auth-alt">
          <Link to="/login">{t('register.haveAccount')}</Link>
        </div>
      </Form>
    </AuthLayout>
  );
}
