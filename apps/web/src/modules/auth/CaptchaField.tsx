import { Form, Input } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import type { CaptchaState } from './useCaptcha';

/** Code input with the captcha image; the image is a button that shows another code. */
export function CaptchaField({ captcha }: { captcha: CaptchaState }) {
  const { t } = useTranslation();
  if (!captcha.enabled) return null;
  return (
    <Form.Item field="code" label={t('login.form.captcha')} rules={[{ required: true, message: t('login.form.captcha.required') }]}>
      <Input
        placeholder={t('login.form.captcha.placeholder')}
        autoComplete="off"
        addAfter={
          <button type="button" className="captcha-button" onClick={captcha.refresh} title={t('login.form.captcha.refresh')}>
            {captcha.src ? <img src={captcha.src} alt={t('login.form.captcha.image')} height={30} /> : null}
            <span className="sr-only">{t('login.form.captcha.refresh')}</span>
          </button>
        }
      />
    </Form.Item>
  );
}
