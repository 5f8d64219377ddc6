import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import type { TFunction } from 'i18next';

/** The spec's password policy (at least 10 characters with letters, digits and special characters). */
export function passwordRules(t: TFunction): RulesProps[] {
  return [
    { required: true, message: t('form.required', { field: t('register.password') }) },
    { minLength: 10, message: t('password.tooShort') },
    {
      validator: (value: string | undefined, callback: (message?: string) => void) =>
        callback(!value || (/[A-Za-z]/.test(value) && /\d/.test(value) && /[^A-Za-z0-9]/.test(value)) ? undefined : t('password.weak')),
    },
  ];
}
