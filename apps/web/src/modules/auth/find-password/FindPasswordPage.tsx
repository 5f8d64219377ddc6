import { Button, Form, Input, Message } from '@arco-design/web-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { authApi } from '../../../api/auth';
import { AuthLayout } from '../AuthLayout';
import { CaptchaField } from '../CaptchaField';
import { passwordRules } from '../password-rules';
import { useCaptcha } from '../useCaptcha';

type ResetForm = { email: string; code?: string; resetCode: string; password: string };

const RESEND_SECONDS = 60;

export function FindPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetForm>();
  const captcha = useCaptcha();
  const [countdown, setCountdown] = useState(0);
  const [sending, setSending] = useState(false);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = window.setTimeout(() => setCountdown((n) => n - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [countdown]);

  const sendCode = async () => {
    const fields: (keyof ResetForm)[] = captcha.enabled ? ['email', 'code'] : ['email'];
    try {
      await form.validate(fields);
    } catch {
      return;
    }
    setSending(true);
    try {
      await authApi.resetCode({
        email: String(form.getFieldValue('email') ?? '').trim(),
        code: captcha.enabled ? form.getFieldValue('code') : undefined,
        captchaId: captcha.enabled ? captcha.captchaId : undefined,
      });
      Message.success(t('findPassword.codeSent'));
      setCountdown(RESEND_SECONDS);
    } catch {
      if (captcha.enabled) captcha.refresh();
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: ResetForm) => {
    setLoading(true);
    try {
      await authApi.resetPassword({ email: values.email.trim(), resetCode: values.resetCode.trim(), password: values.password });
      Message.success(t('findPassword.success'));
      navigate('/login', { replace: true });
    } catch {
      // the HTTP client showed the server's message
    } finally {
      setLoading(false);
    }
  };

  return (
    <AuthLayout title={t('findPassword.title')} subtitle={t('findPassword.subtitle')}>
      <Form<ResetForm> form={form} layout="vertical" onSubmit={submit} requiredSymbol={false}>
        <Form.Item
          field="email"
          label={t('findPassword.email')}
          rules={[
            { required: true, message: t('form.required', { field: t('findPassword.email') }) },
            { type: 'email', message: t('register.email.invalid') },
          ]}
        >
          <Input autoComplete="email" autoFocus maxLength={100} />
        </Form.Item>
        <CaptchaField captcha={captcha} />
        <Form.Item
          field="resetCode"
          label={t('findPassword.resetCode')}
          rules={[{ required: true, message: t('form.required', { field: t('findPassword.resetCode') }) }]}
        >
          <Input
            autoComplete="one-time-code"
            maxLength={12}
            addAfter={
              <Button type="text" size="small" loading={sending} disabled={countdown > 0} onClick={() => void sendCode()}>
                {countdown > 0 ? t('findPassword.resend', { seconds: countdown }) : t('findPassword.sendCode')}
              </Button>
            }
          />
        </Form.Item>
        <Form.Item field="password" label={t('findPassword.newPassword')} extra={t('register.password.hint')} rules={passwordRules(t)}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" long loading={loading}>
          {t('findPassword.submit')}
        </Button>
        <div className="auth-alt">
          <Link to="/login">{t('login.backToLogin')}</Link>
        </div>
      </Form>
    </AuthLayout>
  );
}
